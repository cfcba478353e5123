// A record's timeline, newest first: its activities, a case's comments and its changes, merged
// from their keyset-paged sources (useTimeline) with one "Load more"; "Log activity" opens the
// activity form with the reference set.
import { Button, EmptyState, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Timeline } from '@mantine/core'
import { IconCalendarEvent, IconHistory, IconMail, IconMessageCircle, IconNote, IconPencil, IconPhone, IconPlus, IconSparkles, IconChecklist, IconArrowsExchange } from '@tabler/icons-react'
import type { ComponentType } from 'react'
import { Link } from 'react-router'
import { LoadMore } from '../../../components/LoadMore.tsx'
import { ErrorState } from '../../../components/ErrorState.tsx'
import type { RecordKind } from '../../../kinds.ts'
import { describeEvents } from './eventChanges.ts'
import { useCustomFields } from '../../../api/customFields.ts'
import { entryTitle, TimelineEntryBody } from './TimelineEntryView.tsx'
import { activityRefField, useTimeline, type TimelineEntry } from './useTimeline.ts'

const ACTIVITY_ICONS: Record<string, ComponentType<{ size?: number }>> = { call: IconPhone, email: IconMail, event: IconCalendarEvent, note: IconNote, task: IconChecklist }

function bullet(entry: TimelineEntry) {
  if (entry.type === 'activity') {
    const Icon = ACTIVITY_ICONS[String(entry.record.kind)] ?? IconCalendarEvent
    return { icon: <Icon size={14} />, color: 'blue' }
  }
  if (entry.type === 'comment') return { icon: <IconMessageCircle size={14} />, color: 'grape' }
  const action = entry.event.type.slice(entry.event.type.indexOf('.') + 1)
  if (action === 'created') return { icon: <IconSparkles size={14} />, color: 'teal' }
  if (action === 'stage_changed') return { icon: <IconArrowsExchange size={14} />, color: 'orange' }
  return { icon: <IconPencil size={14} />, color: 'gray' }
}

export function RecordTimeline({ kind, id }: { kind: RecordKind; id: string }) {
  const timeline = useTimeline(kind, id)
  const custom = useCustomFields(kind.name)
  const described = describeEvents(kind, timeline.events, custom.fields)
  // Updates that changed nothing worth saying (only the stage, told by its own event) are left out.
  const items = timeline.items.filter((i) => i.value.type !== 'event' || described.has(i.value.event.id))
  const refField = activityRefField(kind)
  const logActivity = refField ? (
    <Button component={Link} to={`/activities/new?${refField}=${encodeURIComponent(id)}`} size="xs" variant="light" leftSection={<IconPlus size={14} />}>
      Log activity
    </Button>
  ) : null

  return (
    <Paper withBorder radius="md" shadow="xs" component="section" aria-label="Timeline">
      <Group justify="space-between" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="sm" c="dimmed">
          Activities, comments and changes, newest first
        </Text>
        {logActivity}
      </Group>
      <div style={{ padding: 'var(--mantine-spacing-md) var(--mantine-spacing-lg)' }}>
        {timeline.isPending ? (
          <Stack gap="lg" aria-busy="true" aria-label="Loading timeline">
            {[0, 1, 2].map((i) => (
              <Group key={i} gap="sm" wrap="nowrap" align="flex-start">
                <Skeleton circle height={24} />
                <Stack gap={6} style={{ flex: 1 }}>
                  <Skeleton height={12} width="40%" />
                  <Skeleton height={10} width="70%" />
                </Stack>
              </Group>
            ))}
          </Stack>
        ) : timeline.error && items.length === 0 ? (
          <ErrorState title="Could not load the timeline" error={timeline.error} onRetry={timeline.retry} />
        ) : items.length === 0 ? (
          <EmptyState py={32} icon={<IconHistory size={24} />} variant="light" title="Nothing here yet" description="Calls, emails, meetings, comments and changes to this record show up here.">
            {logActivity && <EmptyState.Actions>{logActivity}</EmptyState.Actions>}
          </EmptyState>
        ) : (
          <>
            {timeline.error && <ErrorState title="Part of the timeline could not be loaded" error={timeline.error} onRetry={timeline.retry} />}
            <Timeline bulletSize={26} lineWidth={2} aria-label="Timeline entries">
              {items.map((item) => {
                const entry = item.value
                const b = bullet(entry)
                const d = entry.type === 'event' ? described.get(entry.event.id) : undefined
                return (
                  <Timeline.Item
                    key={item.key}
                    bullet={
                      <ThemeIcon size={26} radius="xl" variant="light" color={b.color}>
                        {b.icon}
                      </ThemeIcon>
                    }
                    title={
                      <Text size="sm" fw={600}>
                        {entryTitle(entry, d)}
                      </Text>
                    }
                    data-entry={entry.type}
                  >
                    <TimelineEntryBody entry={entry} described={d} at={item.at} />
                  </Timeline.Item>
                )
              })}
            </Timeline>
            <LoadMore hasMore={timeline.hasMore} loading={timeline.isFetchingMore} onLoad={timeline.loadMore} />
          </>
        )}
      </div>
    </Paper>
  )
}
