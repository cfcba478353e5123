// Where a revert stands: a live bar while it runs in the background, then what it reverted, and
// the conflicts it left alone (each record linked, with the field and why), or why it failed.
import { Alert, Anchor, List, Progress, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react'
import { Link } from 'react-router'
import type { Conflict, RevertStatus } from '../../api/operations.ts'
import { humanize } from '../../kinds.ts'
import { kindNamed } from './actorText.ts'

const count = (n: number) => n.toLocaleString()

const REASONS: Record<Conflict['reason'], string> = {
  changed_since: 'changed again since',
  deleted_since: 'deleted since',
  id_in_use: 'its id is in use again',
  reference_gone: 'a record it refers to is gone',
}

function ConflictItem({ conflict }: { conflict: Conflict }) {
  const kind = kindNamed(conflict.kind)
  const what = kind ? `${kind.label} ${conflict.record_id.slice(0, 8)}` : `${conflict.kind} ${conflict.record_id.slice(0, 8)}`
  return (
    <List.Item>
      {kind ? (
        <Anchor component={Link} to={`/${kind.path}/${conflict.record_id}?tab=history`} size="sm">
          {what}
        </Anchor>
      ) : (
        what
      )}
      {conflict.field ? <Text span size="sm">{` — ${humanize(conflict.field)}`}</Text> : null}
      <Text span size="sm" c="dimmed">{`: ${REASONS[conflict.reason] ?? conflict.reason}`}</Text>
    </List.Item>
  )
}

export function ConflictList({ conflicts }: { conflicts: readonly Conflict[] }) {
  return (
    <List size="sm" spacing={4} aria-label="Conflicts" style={{ maxHeight: 220, overflowY: 'auto' }}>
      {conflicts.map((c) => (
        <ConflictItem key={`${c.kind}/${c.record_id}/${c.field ?? ''}`} conflict={c} />
      ))}
    </List>
  )
}

export function RevertOutcome({ status }: { status: RevertStatus }) {
  const { done, total } = status.progress
  if (status.state === 'running') {
    return (
      <Stack gap={6} data-revert-state="running">
        <Progress value={total > 0 ? (done / total) * 100 : 0} size="lg" radius="xl" striped animated aria-label="Undo progress" />
        <Text size="xs" c="dimmed">
          Reverting… {count(done)} of {count(total)} changes. You can close this; the undo goes on.
        </Text>
      </Stack>
    )
  }
  if (status.state === 'failed') {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The undo stopped" data-revert-state="failed">
        {count(status.reverted)} of {count(total)} changes were reverted before it stopped. Try again: what was reverted is not reverted twice.
      </Alert>
    )
  }
  return (
    <Stack gap="sm" data-revert-state="succeeded">
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title="Undone">
        {count(status.reverted)} {status.reverted === 1 ? 'change was' : 'changes were'} reverted.
      </Alert>
      {status.conflicts.length > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={`${count(status.conflicts.length)} left as they are`}>
          <Text size="sm" mb="xs">
            These were changed after this operation, so the undo left them as they are. Open each to set it by hand.
          </Text>
          <ConflictList conflicts={status.conflicts} />
        </Alert>
      )}
    </Stack>
  )
}
