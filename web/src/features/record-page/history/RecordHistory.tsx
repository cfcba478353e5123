// A record's History tab: every change of it, newest first (GET /{kind}/{id}/history), each with
// when, who (a person, through which API client, or the import or migration), the channel, and
// each field's old and new value as the timeline shows them; and "Undo" on an entry, which reverts
// the whole operation the change was part of.
import { Button, EmptyState, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Timeline } from '@mantine/core'
import { IconArrowBackUp, IconHistory, IconPencil, IconSparkles, IconTrash } from '@tabler/icons-react'
import { Link } from 'react-router'
import { useCustomFields } from '../../../api/customFields.ts'
import { useRecordHistory, type HistoryEntry } from '../../../api/operations.ts'
import { LoadMore } from '../../../components/LoadMore.tsx'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { formatDateTime, type CrmRecord, type RecordKind } from '../../../kinds.ts'
import { ActorName, ChannelBadge } from '../../operations/ActorName.tsx'
import { UndoOperationButton } from '../../operations/UndoOperationButton.tsx'
import { ChangeList } from '../timeline/TimelineEntryView.tsx'
import { historyChanges, historyVerb } from './historyChanges.ts'

const BULLETS: Record<string, { icon: typeof IconPencil; color: string }> = {
  created: { icon: IconSparkles, color: 'teal' },
  deleted: { icon: IconTrash, color: 'red' },
  restored: { icon: IconArrowBackUp, color: 'teal' },
}

function Entry({ kind, entry, record, defs }: { kind: RecordKind; entry: HistoryEntry; record: CrmRecord; defs: ReturnType<typeof useCustomFields>['fields'] }) {
  // A create's or delete's values are the whole record: the verb says it, the record page shows them.
  const changes = entry.action === 'created' || entry.action === 'deleted' ? [] : historyChanges(kind, entry, defs)
  return (
    <Stack gap={4} data-history-entry={entry.id}>
      <ChangeList changes={changes} object={record} />
      <Group gap="xs" mt={2}>
        <Text size="xs" c="dimmed" component="time" dateTime={entry.at}>
          {formatDateTime(entry.at)}
        </Text>
        <ActorName actor={entry.actor} size="xs" />
        <ChannelBadge channel={entry.actor.channel} size="xs" />
        <Button component={Link} to={`/operations/${entry.operation_id}`} variant="subtle" size="compact-xs" color="gray">
          Operation
        </Button>
        <UndoOperationButton operationId={entry.operation_id} size="compact-xs" variant="subtle" aria-label={`Undo: ${historyVerb(entry, changes)}`} />
      </Group>
    </Stack>
  )
}

export function RecordHistory({ kind, record }: { kind: RecordKind; record: CrmRecord }) {
  const history = useRecordHistory(kind, record.id)
  const custom = useCustomFields(kind.name)
  const entries = history.data?.pages.flatMap((p) => p.data) ?? []
  return (
    <Paper withBorder radius="md" shadow="xs" component="section" aria-label="History">
      <Group justify="space-between" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="sm" c="dimmed">
          Every change of this {kind.label.toLowerCase()}, newest first: who made it, how, and what it changed
        </Text>
      </Group>
      <div style={{ padding: 'var(--mantine-spacing-md) var(--mantine-spacing-lg)' }}>
        {history.isPending ? (
          <Stack gap="lg" aria-busy="true" aria-label="Loading history">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Stack>
        ) : history.isError ? (
          <ErrorState title="Could not load the history" error={history.error} onRetry={() => void history.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState py={32} icon={<IconHistory size={24} />} variant="light" title="No changes recorded" description="Changes made from now on show up here, with who made them." />
        ) : (
          <>
            <Timeline bulletSize={26} lineWidth={2} aria-label="History entries">
              {entries.map((entry) => {
                const b = BULLETS[entry.action] ?? { icon: IconPencil, color: 'gray' }
                return (
                  <Timeline.Item
                    key={entry.id}
                    bullet={
                      <ThemeIcon size={26} radius="xl" variant="light" color={b.color}>
                        <b.icon size={14} />
                      </ThemeIcon>
                    }
                    title={
                      <Text size="sm" fw={600}>
                        {historyVerb(entry, historyChanges(kind, entry, custom.fields))}
                      </Text>
                    }
                  >
                    <Entry kind={kind} entry={entry} record={record} defs={custom.fields} />
                  </Timeline.Item>
                )
              })}
            </Timeline>
            <LoadMore hasMore={history.hasNextPage} loading={history.isFetchingNextPage} onLoad={() => void history.fetchNextPage()} />
          </>
        )}
      </div>
    </Paper>
  )
}
