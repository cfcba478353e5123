// Every API client of the organization: name and how it was registered, id, scopes, dates (last
// used: the last request made with one of its tokens, to the minute), status, and Revoke for the
// active ones.
import { ActionIcon, Badge, Code, CopyButton, Group, Stack, Table, Text, Tooltip } from '@mantine/core'
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react'
import type { ApiClient } from '../../api/settings.ts'
import { formatDateTime } from '../../kinds.ts'
import { timeAgo } from '../../components/time.ts'
import { DayWithTime } from '../../components/DayWithTime.tsx'
import { registrationText, scopeTitle } from './apiClientText.ts'
import { RevokeClientButton } from './RevokeClientButton.tsx'

// A badge is a grid whose label may shrink to nothing; in a tight table cell it would truncate.
const FULL_LABEL = { root: { overflow: 'visible' }, label: { overflow: 'visible' } } as const

function Registration({ client }: { client: ApiClient }) {
  const { label, warn } = registrationText(client)
  if (!warn) {
    return (
      <Text size="xs" c="dimmed" aria-label="Registered via">
        {label}
      </Text>
    )
  }
  return (
    <Tooltip label="Registered by the integration itself; its name and redirect URIs are not verified." multiline w={260} withArrow>
      <Group gap={4} wrap="nowrap" aria-label="Registered via">
        <IconAlertTriangle size={13} color="var(--mantine-color-orange-6)" />
        <Text size="xs" c="orange.8">
          {label}
        </Text>
      </Group>
    </Tooltip>
  )
}

function ClientRow({ client }: { client: ApiClient }) {
  const revoked = client.status === 'revoked'
  return (
    <Table.Tr data-client-id={client.client_id} style={revoked ? { opacity: 0.65 } : undefined}>
      <Table.Td>
        <Stack gap={2} miw={150}>
          <Text size="sm" fw={600}>
            {client.name}
          </Text>
          <Registration client={client} />
        </Stack>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" preventGrowOverflow={false}>
          <Code fz={12} title={client.client_id} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 200, display: 'inline-block' }}>
            {client.client_id}
          </Code>
          <CopyButton value={client.client_id} timeout={2000}>
            {({ copied, copy }) => (
              <ActionIcon size="sm" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy client ID of ${client.name}`}>
                {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              </ActionIcon>
            )}
          </CopyButton>
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4} preventGrowOverflow={false} miw={150}>
          {client.scopes.map((s) => (
            <Tooltip key={s} label={scopeTitle(s)} withArrow>
              <Badge variant="light" color={s.endsWith(':write') ? 'grape' : 'blue'} radius="sm" tt="none" fw={600} ff="monospace" styles={FULL_LABEL}>
                {s}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <DayWithTime value={client.created_at} />
      </Table.Td>
      <Table.Td>
        {client.last_used_at ? (
          <Tooltip label={`Last request with a token of this client: ${formatDateTime(client.last_used_at)} (recorded to the minute)`} multiline w={260} withArrow>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {timeAgo(client.last_used_at)}
            </Text>
          </Tooltip>
        ) : (
          <Tooltip label="No request has used a token of this client yet" multiline w={260} withArrow>
            <Text size="sm" c="dimmed">
              Never
            </Text>
          </Tooltip>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }} miw={100}>
        {revoked ? (
          <Tooltip label={client.revoked_at ? `Revoked ${formatDateTime(client.revoked_at)}` : 'Revoked'} withArrow>
            <Badge color="gray" variant="outline" radius="sm" styles={FULL_LABEL}>
              Revoked
            </Badge>
          </Tooltip>
        ) : (
          <Badge color="teal" variant="dot" radius="sm" styles={FULL_LABEL}>
            Active
          </Badge>
        )}
      </Table.Td>
      <Table.Td ta="right">{!revoked && <RevokeClientButton client={client} />}</Table.Td>
    </Table.Tr>
  )
}

export function ApiClientsTable({ clients }: { clients: ApiClient[] }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" horizontalSpacing="sm" aria-label="API clients" styles={{ th: { whiteSpace: 'nowrap' } }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Client</Table.Th>
            <Table.Th>Client ID</Table.Th>
            <Table.Th>Scopes</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>Actions</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clients.map((c) => (
            <ClientRow key={c.client_id} client={c} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
