// One webhook (/app/settings/webhooks/:id): its endpoint, events, delivery rules (order, filter)
// and health, the actions (send a test event, edit, disable or re-enable, delete), replays of past
// events with their progress, and its delivery log.
import { Alert, Anchor, Badge, Button, Code, Group, Modal, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconAlertTriangle, IconPlayerPause, IconPlayerPlay, IconSend, IconTrash } from '@tabler/icons-react'
import { Link, useNavigate, useParams } from 'react-router'
import { useDeleteWebhook, useSendTestEvent, useUpdateWebhook, useWebhook, type Webhook } from '../../api/webhooks.ts'
import { ApiError } from '../../api/client.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { formatDateTime } from '../../kinds.ts'
import { DeliveryLog } from './DeliveryLog.tsx'
import { ReplayPanel } from './ReplayPanel.tsx'
import { WebhookFormModal } from './WebhookFormModal.tsx'
import { WebhooksAdminsOnly } from './WebhooksAdminsOnly.tsx'
import { StatusBadge } from './WebhooksTable.tsx'
import { actionLabel, describeFilter, ENTITIES, ENTITY_LABELS, eventsOf } from './webhookText.ts'

const BACK_TO_LIST = (
  <Anchor component={Link} to="/settings/webhooks" c="dimmed" inherit underline="hover">
    Settings · Webhooks
  </Anchor>
)

function Stat({ label, value, color }: { label: string; value: number | string; color?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
    </Paper>
  )
}

function Subscriptions({ events }: { events: string[] }) {
  return (
    <Stack gap={6}>
      {ENTITIES.filter((e) => eventsOf(e).some((n) => events.includes(n))).map((entity) => (
        <Group key={entity} gap={6}>
          <Text size="sm" fw={600} w={110}>
            {ENTITY_LABELS[entity]}
          </Text>
          {eventsOf(entity)
            .filter((n) => events.includes(n))
            .map((n) => (
              <Badge key={n} variant="default" tt="none">
                {actionLabel(n)}
              </Badge>
            ))}
        </Group>
      ))}
    </Stack>
  )
}

function DeliveryRules({ webhook }: { webhook: Webhook }) {
  return (
    <Stack gap="xs">
      <Group gap={6} wrap="nowrap" align="baseline">
        <Text size="sm" fw={600} w={110}>
          Order
        </Text>
        <Text size="sm">
          {webhook.ordering === 'per_record' ? 'In order per record: one event of a record at a time, oldest first' : 'Fastest: events are sent in parallel, in any order'}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap" align="baseline">
        <Text size="sm" fw={600} w={110}>
          Payload
        </Text>
        <Text size="sm">{webhook.payload === 'thin' ? 'Thin: id, seq, type, timestamp and object_id only' : 'The whole event'}</Text>
      </Group>
      <Group gap={6} wrap="nowrap" align="baseline">
        <Text size="sm" fw={600} w={110} style={{ flexShrink: 0 }}>
          Filter
        </Text>
        {webhook.filter ? (
          <Stack gap={4}>
            <Text size="sm">Only events where {describeFilter(webhook.filter)}</Text>
            <Code>{JSON.stringify(webhook.filter)}</Code>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            None: every subscribed event is sent
          </Text>
        )}
      </Group>
    </Stack>
  )
}

function DeleteButton({ webhook }: { webhook: Webhook }) {
  const [opened, { open, close }] = useDisclosure(false)
  const remove = useDeleteWebhook()
  const navigate = useNavigate()
  return (
    <>
      <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={open}>
        Delete
      </Button>
      <Modal opened={opened} onClose={close} title="Delete this webhook?">
        <Stack>
          <Text size="sm">
            Cairn stops sending events to <strong>{webhook.url}</strong> and deletes its delivery log. This cannot be undone.
          </Text>
          {remove.isError && <ErrorState title="Could not delete" error={remove.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(webhook.id, { onSuccess: () => navigate('/settings/webhooks') })}>
              Delete webhook
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  )
}

export function WebhookPage() {
  const { id = '' } = useParams()
  const webhook = useWebhook(id)
  const update = useUpdateWebhook(id)
  const sendTest = useSendTestEvent(id)
  const [editing, { open, close }] = useDisclosure(false)

  if (webhook.isPending) {
    return (
      <Stack gap="sm" aria-busy="true">
        <Skeleton height={28} width="50%" />
        <Skeleton height={120} />
      </Stack>
    )
  }
  // A member (or an administrator demoted meanwhile): the server refuses every webhook call.
  if (webhook.error instanceof ApiError && webhook.error.code === 'admin_required') {
    return (
      <>
        <PageHeader eyebrow={BACK_TO_LIST} title="Webhook" />
        <WebhooksAdminsOnly />
      </>
    )
  }
  if (webhook.isError) {
    return (
      <>
        <PageHeader
          eyebrow={BACK_TO_LIST}
          title="Webhook"
        />
        <ErrorState title="Could not load this webhook" error={webhook.error} onRetry={() => void webhook.refetch()} />
      </>
    )
  }
  const w = webhook.data
  const active = w.status === 'active'
  return (
    <>
      <PageHeader
        eyebrow={BACK_TO_LIST}
        title={<span style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: '0.8em', wordBreak: 'break-all' }}>{w.url}</span>}
        badges={<StatusBadge webhook={w} />}
        actions={
          <>
            <Button leftSection={<IconSend size={16} />} onClick={() => sendTest.mutate()} loading={sendTest.isPending} disabled={!active}>
              Send test event
            </Button>
            <Button variant="default" onClick={open}>
              Edit
            </Button>
            {active && (
              <Button variant="default" leftSection={<IconPlayerPause size={16} />} loading={update.isPending} onClick={() => update.mutate({ status: 'disabled' })}>
                Disable
              </Button>
            )}
            <DeleteButton webhook={w} />
          </>
        }
      />
      <Stack gap="lg">
        {!active && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This webhook is disabled">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {w.disabled_reason} {w.disabled_at && `(${formatDateTime(w.disabled_at)})`}
              </Text>
              <Button size="xs" leftSection={<IconPlayerPlay size={14} />} loading={update.isPending} onClick={() => update.mutate({ status: 'active' })}>
                Re-enable
              </Button>
            </Stack>
          </Alert>
        )}
        {sendTest.isSuccess && (
          <Alert color="blue" variant="light" title="Test event queued" withCloseButton onClose={() => sendTest.reset()}>
            A webhook.test event is on its way; it appears in the delivery log below.
          </Alert>
        )}
        {(sendTest.isError || update.isError) && <ErrorState title="That did not work" error={sendTest.error ?? update.error} />}
        <SimpleGrid cols={{ base: 2, sm: 5 }}>
          <Stat label="Delivered" value={w.delivery_stats.succeeded} color="teal.8" />
          <Stat label="Failed" value={w.delivery_stats.failed} color={w.delivery_stats.failed ? 'red.7' : undefined} />
          <Stat label="Waiting" value={w.delivery_stats.pending} color={w.delivery_stats.pending ? 'yellow.8' : undefined} />
          <Stat label="Filtered out" value={w.delivery_stats.filtered} />
          <Stat label="Signing" value={w.secret_set ? 'Signed' : 'Unsigned'} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder radius="md" p="md">
            <Text fw={600} mb="xs">
              Subscribed events
            </Text>
            <Subscriptions events={w.events} />
            {w.description && (
              <Text size="sm" c="dimmed" mt="sm">
                {w.description}
              </Text>
            )}
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Text fw={600} mb="xs">
              Delivery rules
            </Text>
            <DeliveryRules webhook={w} />
          </Paper>
        </SimpleGrid>
        <ReplayPanel webhook={w} />
        <DeliveryLog webhookId={w.id} canRetry={active} />
      </Stack>
      <WebhookFormModal opened={editing} onClose={close} webhook={w} />
    </>
  )
}
