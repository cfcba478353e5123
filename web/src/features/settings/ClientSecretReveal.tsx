// Shown once, right after a client is created: its id and secret with copy buttons, and the
// warning that the secret cannot be seen again.
import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { CopyableValue } from '../../components/CopyableValue.tsx'
import type { CreatedApiClient } from '../../api/settings.ts'

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
