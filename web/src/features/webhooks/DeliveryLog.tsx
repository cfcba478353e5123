// The delivery log of one webhook, newest first: event, status, attempts, last response and
// latency; a row opens every attempt and the exact payload, with "Retry now" for failed ones.
import { Accordion, Badge, Button, Code, Group, Loader, Paper, ScrollArea, Stack, Table, Text } from '@mantine/core'
import { IconRefresh } from '@tabler/icons-react'
import { useDeliveries, useRetryDelivery, type Delivery } from '../../api/webhooks.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { formatDateTime } from '../../kinds.ts'
import { DELIVERY_STATUS } from './webhookText.ts'

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return delivery.status === 'filtered' ? null : <Text size="sm" c="dimmed">Not attempted yet.</Text>
  return (
    <Table withTableBorder verticalSpacing={6} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>#</Table.Th>
          <Table.Th>Time</Table.Th>
          <Table.Th>Response</Table.Th>
          <Table.Th>Latency</Table.Th>
          <Table.Th>Error</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {delivery.attempts.map((a) => (
          <Table.Tr key={a.attempt}>
            <Table.Td>{a.attempt}</Table.Td>
            <Table.Td>{formatDateTime(a.started_at)}</Table.Td>
            <Table.Td>
              {a.status_code === null ? (
                <Text size="sm" c="dimmed">No response</Text>
              ) : (
                <Badge variant="outline" color={a.status_code < 300 ? 'teal' : 'red'}>
                  {a.status_code}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{a.latency_ms} ms</Table.Td>
            <Table.Td>
              <Text size="sm" c={a.error ? 'red.8' : 'dimmed'}>
                {a.error ?? '—'}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

function DeliveryRow({ webhookId, delivery, canRetry }: { webhookId: string; delivery: Delivery; canRetry: boolean }) {
  const retry = useRetryDelivery(webhookId)
  const status = DELIVERY_STATUS[delivery.status]
  const last = delivery.attempts.at(-1)
  return (
    <Accordion.Item value={delivery.id} data-delivery-id={delivery.id}>
      <Accordion.Control aria-label={`${delivery.event_type} delivery, ${status.label}`}>
        <Group justify="space-between" wrap="nowrap" pr="sm">
          <Group gap="sm" wrap="nowrap">
            <Badge color={status.color} variant="light" miw={96} styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}>
              {status.label}
            </Badge>
            <Text size="sm" ff="monospace" fw={600}>
              {delivery.event_type}
            </Text>
            {delivery.replay_id && (
              <Badge size="xs" variant="outline" color="grape" tt="none">
                replay
              </Badge>
            )}
          </Group>
          <Group gap="lg" wrap="nowrap">
            <Text size="sm" c="dimmed" w={110}>
              {delivery.attempt_count} attempt{delivery.attempt_count === 1 ? '' : 's'}
            </Text>
            <Text size="sm" c="dimmed" w={120}>
              {last ? `${last.status_code ?? 'no response'} · ${last.latency_ms} ms` : delivery.status === 'filtered' ? 'not sent' : 'queued'}
            </Text>
            <Text size="sm" c="dimmed" w={170}>
              {formatDateTime(delivery.created_at)}
            </Text>
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          {delivery.status === 'filtered' && <Text size="sm">Not sent: the webhook&apos;s filter did not accept this event when it was due.</Text>}
          {delivery.status === 'pending' && delivery.next_attempt_at && (
            <Text size="sm">Next attempt {formatDateTime(delivery.next_attempt_at)}.</Text>
          )}
          {delivery.last_error && delivery.status !== 'succeeded' && (
            <Text size="sm" c="red.8">
              {delivery.last_error}
            </Text>
          )}
          <Attempts delivery={delivery} />
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              webhook-id <Code>{delivery.event_id}</Code> (the same on every attempt)
            </Text>
            {delivery.status === 'failed' && canRetry && (
              <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} loading={retry.isPending} onClick={() => retry.mutate(delivery.id)}>
                Retry now
              </Button>
            )}
          </Group>
          {retry.isError && <ErrorState title="Could not retry" error={retry.error} />}
          <Text size="sm" fw={500}>
            Payload
          </Text>
          <ScrollArea.Autosize mah={280}>
            <Code block>{JSON.stringify(delivery.payload, null, 2)}</Code>
          </ScrollArea.Autosize>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  )
}

export function DeliveryLog({ webhookId, canRetry }: { webhookId: string; canRetry: boolean }) {
  const log = useDeliveries(webhookId)
  const deliveries = log.data?.pages.flatMap((p) => p.data) ?? []
  return (
    <Paper withBorder radius="md" shadow="xs">
      <Group justify="space-between" p="md" pb="xs">
        <Text fw={600}>Delivery log</Text>
        {log.isFetching && <Loader size="xs" aria-label="Refreshing" />}
      </Group>
      {log.isPending ? (
        <Text p="md" size="sm" c="dimmed">
          Loading deliveries…
        </Text>
      ) : log.isError ? (
        <div style={{ padding: 16 }}>
          <ErrorState title="Could not load the delivery log" error={log.error} onRetry={() => void log.refetch()} />
        </div>
      ) : deliveries.length === 0 ? (
        <Text p="md" pt={0} size="sm" c="dimmed">
          No deliveries yet. Send a test event, or change a record of a subscribed kind.
        </Text>
      ) : (
        <>
          <Accordion chevronPosition="left" variant="default" aria-label="Deliveries">
            {deliveries.map((d) => (
              <DeliveryRow key={d.id} webhookId={webhookId} delivery={d} canRetry={canRetry} />
            ))}
          </Accordion>
          {log.hasNextPage && (
            <Group justify="center" p="sm">
              <Button variant="subtle" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
                Load more
              </Button>
            </Group>
          )}
        </>
      )}
    </Paper>
  )
}
