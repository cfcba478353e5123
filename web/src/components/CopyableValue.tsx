// A labelled value shown in full with a copy button (secrets shown once, ids).
import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'

export function CopyableValue({ label, value }: { label: string; value: string }) {
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
