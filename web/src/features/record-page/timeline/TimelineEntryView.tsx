// One entry of a record's timeline: an activity (linked, with its kind and status), a case comment,
// or a change (one line per changed field, custom fields included, under its label: old value
// struck through, new value).
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core'
import { Link } from 'react-router'
import { useMe } from '../../../api/queries.ts'
import { kindsByName } from '../../../../../src/web-contracts.ts'
import { badgeColor, formatDate, formatDateTime, humanize } from '../../../kinds.ts'
import { FieldValue } from '../../records/FieldValue.tsx'
import { CustomFieldValue, storedValueText } from '../../records/CustomFieldDetails.tsx'
import type { DescribedEvent, FieldChange } from './eventChanges.ts'
import type { TimelineEntry } from './useTimeline.ts'

function When({ at }: { at: string }) {
  return (
    <Text size="xs" c="dimmed" component="time" dateTime={at}>
      {formatDateTime(at)}
    </Text>
  )
}

/** A value as the record page shows it: a built-in field by its type, a custom field by its definition, other data as stored. */
function Shown({ change, value, object }: { change: FieldChange; value: unknown; object: Record<string, unknown> }) {
  if (change.custom?.def) return <CustomFieldValue def={change.custom.def} value={value} inline />
  if (change.custom || typeof value === 'object') {
    return (
      <Text span size="sm" style={{ wordBreak: 'break-word' }}>
        {storedValueText(value)}
      </Text>
    )
  }
  return <FieldValue field={change.field} record={{ ...object, [change.field.name]: value } as never} />
}

function Value({ change, which, object }: { change: FieldChange; which: 'before' | 'after'; object: Record<string, unknown> }) {
  const value = change[which]
  if (value === null || value === undefined || value === '') {
    return (
      <Text span size="sm" c="dimmed" fs="italic">
        empty
      </Text>
    )
  }
  return (
    <span style={which === 'before' ? { textDecoration: 'line-through', opacity: 0.6 } : undefined}>
      <Shown change={change} value={value} object={object} />
    </span>
  )
}

export function ChangeList({ changes, object }: { changes: FieldChange[]; object: Record<string, unknown> }) {
  if (changes.length === 0) return null
  return (
    <Stack gap={4} mt={4}>
      {changes.map((c) => (
        <Group key={c.field.name} gap={6} wrap="wrap" align="center">
          <Text size="sm" c="dimmed" miw={90}>
            {c.field.label}
          </Text>
          <Value change={c} which="before" object={object} />
          <Text span size="sm" c="dimmed" aria-label="to">
            →
          </Text>
          <Value change={c} which="after" object={object} />
        </Group>
      ))}
    </Stack>
  )
}

export function entryTitle(entry: TimelineEntry, described: DescribedEvent | undefined): string {
  if (entry.type === 'activity') return humanize(String(entry.record.kind ?? 'activity'))
  if (entry.type === 'comment') return entry.record.is_public ? 'Public comment' : 'Internal comment'
  return described?.verb ?? entry.event.type
}

export function TimelineEntryBody({ entry, described, at }: { entry: TimelineEntry; described: DescribedEvent | undefined; at: string }) {
  const me = useMe()
  if (entry.type === 'activity') {
    const r = entry.record
    const activity = kindsByName.activity
    return (
      <Stack gap={2}>
        <Anchor component={Link} to={`/${activity.path}/${r.id}`} size="sm" fw={500}>
          {String(r.subject ?? 'Untitled activity')}
        </Anchor>
        <Group gap="xs">
          {typeof r.status === 'string' && (
            <Badge size="xs" variant="light" color={badgeColor(r.status)} radius="sm">
              {humanize(r.status)}
            </Badge>
          )}
          {typeof r.due_date === 'string' && (
            <Text size="xs" c="dimmed">
              Due {formatDate(r.due_date)}
            </Text>
          )}
          <When at={at} />
        </Group>
      </Stack>
    )
  }
  if (entry.type === 'comment') {
    const mine = me.data?.user && entry.record.author_user_id === me.data.user.id ? me.data.user.name : null
    const author = mine ?? (entry.record.author_name as string | null) ?? 'Team member'
    return (
      <Stack gap={2}>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} lineClamp={6}>
          {String(entry.record.body ?? '')}
        </Text>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {author}
          </Text>
          <When at={at} />
        </Group>
      </Stack>
    )
  }
  return (
    <Stack gap={2}>
      <ChangeList changes={described?.changes ?? []} object={entry.event.data.object ?? {}} />
      <When at={at} />
    </Stack>
  )
}
