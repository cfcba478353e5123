// Replaying past events to one webhook: the latest replay's progress (events read from the journal,
// then deliveries sent) and "Replay events", which asks from when (a time or a feed seq).
import { Alert, Badge, Button, Group, Modal, NumberInput, Paper, Progress, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconHistory } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client.ts'
import { useReplay, type Replay, type Webhook } from '../../api/webhooks.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { formatDateTime } from '../../kinds.ts'

function phase(replay: Replay): { label: string; color: string } {
  if (replay.status === 'canceled') return { label: 'Canceled', color: 'red' }
  if (replay.status === 'running') return { label: 'Queueing events', color: 'blue' }
  if (replay.deliveries.pending > 0) return { label: 'Sending', color: 'blue' }
  return { label: 'Completed', color: 'teal' }
}

const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.min(100, Math.round((part / whole) * 100)))

function ReplayProgress({ replay }: { replay: Replay }) {
  const state = phase(replay)
  const sent = replay.deliveries.succeeded + replay.deliveries.failed + replay.deliveries.filtered
  const since = replay.since_time ? formatDateTime(replay.since_time) : `seq ${replay.since_seq}`
  return (
    <Stack gap="sm" aria-label="Replay progress">
      <Group gap="xs">
        <Badge color={state.color} variant="light">
          {state.label}
        </Badge>
        <Text size="sm" c="dimmed">
          Since {since} · seq {replay.from_seq}–{replay.through_seq} · asked {formatDateTime(replay.created_at)}
        </Text>
      </Group>
      {replay.status === 'canceled' && replay.status_reason && (
        <Text size="sm" c="red.8">
          {replay.status_reason}
        </Text>
      )}
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="xs" fw={600}>
            Read from the journal
          </Text>
          <Text size="xs" c="dimmed">
            {replay.examined.toLocaleString()} of {replay.total.toLocaleString()} events · {replay.queued.toLocaleString()} to send
          </Text>
        </Group>
        <Progress value={percent(replay.examined, replay.total)} animated={replay.status === 'running'} aria-label="Events read" />
      </div>
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="xs" fw={600}>
            Delivered
          </Text>
          <Text size="xs" c="dimmed">
            {replay.deliveries.succeeded.toLocaleString()} of {replay.queued.toLocaleString()}
            {replay.deliveries.failed > 0 && ` · ${replay.deliveries.failed} failed`}
            {replay.deliveries.pending > 0 && ` · ${replay.deliveries.pending} waiting`}
          </Text>
        </Group>
        <Progress.Root aria-label="Deliveries sent">
          <Progress.Section value={percent(replay.deliveries.succeeded, replay.queued)} color="teal" />
          <Progress.Section value={replay.queued === 0 ? 0 : percent(replay.deliveries.failed, replay.queued)} color="red" />
        </Progress.Root>
        {sent === replay.queued && replay.status === 'completed' && replay.finished_at && (
          <Text size="xs" c="dimmed" mt={4}>
            Every event was queued by {formatDateTime(replay.finished_at)}.
          </Text>
        )}
      </div>
    </Stack>
  )
}

/** A datetime-local value for 24 hours ago, in the browser's time zone. */
function dayAgo(): string {
  const d = new Date(Date.now() - 86400_000)
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset())
  return d.toISOString().slice(0, 16)
}

function ReplayForm({ webhook, onDone }: { webhook: Webhook; onDone: () => void }) {
  const replay = useReplay(webhook.id)
  const [from, setFrom] = useState<'time' | 'seq'>('time')
  const [time, setTime] = useState(dayAgo())
  const [seq, setSeq] = useState<number | string>(1)
  const error = replay.error instanceof ApiError ? (replay.error.fieldErrors.find((e) => e.field.includes('since'))?.message ?? null) : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const since = from === 'time' ? new Date(time).toISOString() : Number(seq)
    replay.mutate(since, { onSuccess: onDone })
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          Cairn sends every event since then that this webhook subscribes to {webhook.filter ? 'and its filter accepts ' : ''}again, signed and retried like any
          delivery, and marked as a replay in the log. Events it already received come again with the same webhook-id, so your receiver can skip them.
        </Text>
        <SegmentedControl
          value={from}
          onChange={(v) => setFrom(v as 'time' | 'seq')}
          data={[
            { value: 'time', label: 'From a time' },
            { value: 'seq', label: 'From a feed position (seq)' },
          ]}
          aria-label="Replay from"
        />
        {from === 'time' ? (
          <TextInput type="datetime-local" label="Replay events since" value={time} onChange={(e) => setTime(e.currentTarget.value)} error={error} required />
        ) : (
          <NumberInput label="Replay events from seq" description="The seq of the change feed (GET /api/v1/events); that event included." min={1} value={seq} onChange={setSeq} error={error} required />
        )}
        {replay.isError && !error && <ErrorState title="Could not start the replay" error={replay.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={replay.isPending} leftSection={<IconHistory size={16} />}>
            Start replay
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

export function ReplayPanel({ webhook }: { webhook: Webhook }) {
  const [opened, { open, close }] = useDisclosure(false)
  const running = webhook.replay?.status === 'running'
  const active = webhook.status === 'active'
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-start" mb="sm">
        <div>
          <Text fw={600}>Replay</Text>
          <Text size="sm" c="dimmed">
            Send past events again, for instance after your receiver was down or lost data.
          </Text>
        </div>
        <Button variant="light" leftSection={<IconHistory size={16} />} onClick={open} disabled={!active || running}>
          Replay events…
        </Button>
      </Group>
      {!active && (
        <Alert color="gray" variant="light" mb="sm">
          Re-enable this webhook to replay events to it.
        </Alert>
      )}
      {webhook.replay ? (
        <ReplayProgress replay={webhook.replay} />
      ) : (
        <Text size="sm" c="dimmed">
          No replay yet. Cairn keeps past events for 30 days by default.
        </Text>
      )}
      <Modal opened={opened} onClose={close} title="Replay events" size="lg">
        <ReplayForm webhook={webhook} onDone={close} />
      </Modal>
    </Paper>
  )
}
