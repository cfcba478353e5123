// Every webhook of the organization: endpoint, events (with its filter, order and a running replay),
// signing, status and recent deliveries; a row opens the webhook's page with its delivery log.
import { Badge, Group, Stack, Table, Text, Tooltip } from '@mantine/core'
import { IconLock, IconLockOpen } from '@tabler/icons-react'
import { Link } from 'react-router'
import type { Webhook } from '../../api/webhooks.ts'
import { timeAgo } from '../../components/time.ts'
import { describeFilter, eventsSummary } from './webhookText.ts'

export function StatusBadge({ webhook }: { webhook: Webhook }) {
  if (webhook.status === 'active') return <Badge color="teal" variant="light">Active</Badge>
  return (
    <Tooltip label={webhook.disabled_reason ?? 'Disabled'} multiline w={300} withArrow>
      <Badge color="red" variant="light">
        Disabled
      </Badge>
    </Tooltip>
  )
}

export function DeliveryCounts({ stats }: { stats: Webhook['delivery_stats'] }) {
  return (
    <Group gap={10} wrap="nowrap">
      <Text size="sm" c="teal.8" title="Delivered">
        {stats.succeeded} delivered
      </Text>
      <Text size="sm" c={stats.failed > 0 ? 'red.7' : 'dimmed'} title="Failed">
        {stats.failed} failed
      </Text>
      {stats.pending > 0 && (
        <Text size="sm" c="yellow.8" title="Waiting or retrying">
          {stats.pending} pending
        </Text>
      )}
    </Group>
  )
}

export function WebhooksTable({ webhooks }: { webhooks: Webhook[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Deliveries</Table.Th>
            <Table.Th>Last attempt</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {webhooks.map((w) => (
            <Table.Tr key={w.id} data-webhook-id={w.id}>
              <Table.Td maw={360}>
                <Stack gap={2}>
                  <Group gap={6} wrap="nowrap">
                    {w.secret_set ? (
                      <IconLock size={14} color="var(--mantine-color-teal-7)" aria-label="Signed" />
                    ) : (
                      <IconLockOpen size={14} color="var(--mantine-color-gray-6)" aria-label="Unsigned" />
                    )}
                    <Text component={Link} to={`/settings/webhooks/${w.id}`} size="sm" fw={600} c="blue.8" truncate="end" ff="monospace">
                      {w.url}
                    </Text>
                  </Group>
                  {w.description && (
                    <Text size="xs" c="dimmed" truncate="end">
                      {w.description}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  <Text size="sm">{eventsSummary(w.events)}</Text>
                  {(w.filter || w.ordering === 'per_record' || w.replay?.status === 'running') && (
                    <Group gap={4}>
                      {w.filter && (
                        <Badge size="xs" variant="light" color="gray" tt="none" title={describeFilter(w.filter)}>
                          Filtered
                        </Badge>
                      )}
                      {w.ordering === 'per_record' && (
                        <Badge size="xs" variant="light" color="gray" tt="none">
                          In order per record
                        </Badge>
                      )}
                      {w.replay?.status === 'running' && (
                        <Badge size="xs" variant="light" color="blue" tt="none">
                          Replaying
                        </Badge>
                      )}
                    </Group>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <StatusBadge webhook={w} />
              </Table.Td>
              <Table.Td>
                <DeliveryCounts stats={w.delivery_stats} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {w.delivery_stats.last_attempt_at ? timeAgo(w.delivery_stats.last_attempt_at) : 'Never'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
