// Shown once, right after a client is created: its id and secret with copy buttons, and the
// warning that the secret cannot be seen again.
import { ActionIcon, Alert, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react'
import type { CreatedApiClient } from '../../api/settings.ts'

function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="stretch">
        <Code
          block
          aria-label={label}
          style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap', fontSize: 13, padding: '8px 10px', display: 'flex', alignItems: 'center' }}
        >
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow position="left">
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="light" size={38} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  )
}

export function ClientSecretReveal({ created, onDone }: { created: CreatedApiClient; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        <strong>{created.name}</strong> can now request access to this organization. Give these credentials to the integration.
      </Text>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
        This is the only time the client secret is shown. Store it in a password manager or your integration&apos;s secret store; if it is lost,
        revoke this client and create a new one.
      </Alert>
      <CopyableValue label="Client ID" value={created.client_id} />
      <CopyableValue label="Client secret" value={created.client_secret} />
      <Group justify="flex-end" mt="xs">
        <Button onClick={onDone}>I have copied the secret</Button>
      </Group>
    </Stack>
  )
}
