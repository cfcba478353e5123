// For integrators: the OAuth endpoints of this service, each with a copy button. (The MCP endpoint joins them when /mcp exists.)
import { ActionIcon, Anchor, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'

function endpoints(origin: string) {
  return [
    { label: 'Authorization endpoint', url: `${origin}/oauth/authorize` },
    { label: 'Token endpoint', url: `${origin}/api/oauth/token` },
    { label: 'Discovery', url: `${origin}/.well-known/oauth-authorization-server` },
  ]
}

export function IntegrationEndpoints() {
  const origin = window.location.origin
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" component="section" aria-label="Endpoints for integrators">
      <Title order={4}>Endpoints for integrators</Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        OAuth 2.1 with PKCE (authorization code flow). Most libraries only need the discovery URL. Full reference in the{' '}
        <Anchor href="/docs" target="_blank" size="sm">
          API documentation
        </Anchor>
        .
      </Text>
      <Stack gap="xs">
        {endpoints(origin).map((e) => (
          <Group key={e.label} gap="sm" wrap="nowrap">
            <Text size="sm" fw={500} w={190} style={{ flexShrink: 0 }}>
              {e.label}
            </Text>
            <Code fz={12} style={{ overflowWrap: 'anywhere' }} aria-label={e.label}>
              {e.url}
            </Code>
            <CopyButton value={e.url} timeout={2000}>
              {({ copied, copy }) => (
                <ActionIcon size="sm" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${e.label.toLowerCase()}`}>
                  {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                </ActionIcon>
              )}
            </CopyButton>
          </Group>
        ))}
      </Stack>
    </Paper>
  )
}
