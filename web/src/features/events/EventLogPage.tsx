// Data -> Event log (/app/events): every change in the organization, newest first, from the same
// journal integrators read with GET /api/v1/events; filter by event type, open an event to see its
// payload. Refreshes itself while open.
import { Fragment, useState } from 'react'
import { ActionIcon, Anchor, Badge, Button, Center, Code, Group, MultiSelect, Paper, Skeleton, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core'
import { IconChevronDown, IconChevronRight, IconHistory } from '@tabler/icons-react'
import { Link, useSearchParams } from 'react-router'
import { useEventLog, useEventTypes, type FeedEvent } from '../../api/events.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { timeAgo } from '../../components/time.ts'
import { humanize, kindUiByName, recordTitle, type KindName } from '../../kinds.ts'

const ACTION_COLORS: Record<string, string> = { created: 'teal', updated: 'blue', deleted: 'red', stage_changed: 'grape', converted: 'orange', escalated: 'pink' }

function EventRow({ event }: { event: FeedEvent }) {
  const [open, setOpen] = useState(false)
  const [entity, action] = event.type.split('.') as [KindName, string]
  const ui = kindUiByName(entity)
  const object = event.data.object as Record<string, unknown>
  const title = ui ? recordTitle(ui.kind, object) : String(object.id)
  const previous = (event.data.previous ?? {}) as Record<string, unknown>
  const changed = Object.keys(previous).map((field) => {
    const before = previous[field]
    const after = object[field]
    // Short values read as "Stage: prospecting -> negotiation"; long or structured ones by name only.
    const short = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v)
    return short(before) && short(after) && String(before).length + String(after).length < 60
      ? `${humanize(field)}: ${before ?? 'empty'} → ${after ?? 'empty'}`
      : humanize(field)
  })
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td w={36}>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={open ? 'Hide payload' : 'Show payload'} aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        </Table.Td>
        <Table.Td>
          <Text size="sm" c="dimmed" ff="monospace">
            {event.seq}
          </Text>
        </Table.Td>
        <Table.Td>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500}>
              {ui?.kind.label ?? entity}
            </Text>
            <Badge size="sm" variant="light" color={ACTION_COLORS[action] ?? 'gray'}>
              {humanize(action)}
            </Badge>
          </Group>
        </Table.Td>
        <Table.Td>
          {ui && action !== 'deleted' ? (
            <Anchor component={Link} to={`/${ui.kind.path}/${String(object.id)}`} size="sm">
              {title}
            </Anchor>
          ) : (
            <Text size="sm">{title}</Text>
          )}
        </Table.Td>
        <Table.Td>
          <Text size="sm" c="dimmed" lineClamp={1}>
            {changed.length > 0 ? changed.join(', ') : '—'}
          </Text>
        </Table.Td>
        <Table.Td>
          <Tooltip label={new Date(event.timestamp).toLocaleString()}>
            <Text size="sm" c="dimmed">
              {timeAgo(event.timestamp)}
            </Text>
          </Tooltip>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr>
          <Table.Td colSpan={6} bg="var(--mantine-color-gray-0)">
            <Code block fz="xs" aria-label={`Payload of event ${event.seq}`}>
              {JSON.stringify(event, null, 2)}
            </Code>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  )
}

function EmptyLog({ filtered }: { filtered: boolean }) {
  return (
    <Center py={56}>
      <Stack align="center" gap="xs" maw={420}>
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconHistory size={26} />
        </ThemeIcon>
        <Text fw={600}>{filtered ? 'No events of these types' : 'No events yet'}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {filtered
            ? 'Nothing of the chosen types happened within the retention period. Clear the filter to see every event.'
            : 'Every create, change and delete of accounts, contacts, leads, opportunities and cases will appear here, in order, the moment it happens.'}
        </Text>
      </Stack>
    </Center>
  )
}

export function EventLogPage() {
  const [params, setParams] = useSearchParams()
  const types = params.get('types')?.split(',').filter(Boolean) ?? []
  const catalogue = useEventTypes()
  const log = useEventLog(types)
  const events = log.data?.pages.flatMap((p) => p.data) ?? []
  const options = (catalogue.data?.data ?? []).map((t) => ({ value: t.type, label: t.type }))

  return (
    <>
      <PageHeader eyebrow="Data" title="Event log" />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        Every change in your organization, newest first, as integrators read it from <Code>GET /api/v1/events</Code> and webhooks receive it. Events
        are kept for 30 days.
      </Text>
      <Group mb="md" align="flex-end">
        <MultiSelect
          label="Event types"
          placeholder={types.length > 0 ? undefined : 'All event types'}
          data={options}
          value={types}
          onChange={(next) => setParams(next.length > 0 ? { types: next.join(',') } : {}, { replace: true })}
          searchable
          clearable
          w={420}
          disabled={catalogue.isLoading}
        />
      </Group>
      {log.error ? (
        <ErrorState error={log.error} onRetry={() => void log.refetch()} title="Could not load the event log" />
      ) : (
        <Paper withBorder radius="md">
          {log.isLoading ? (
            <Stack p="md" gap="sm">
              {[0, 1, 2, 3, 4].map((i) => (
                <Skeleton key={i} height={28} />
              ))}
            </Stack>
          ) : events.length === 0 ? (
            <EmptyLog filtered={types.length > 0} />
          ) : (
            <Table verticalSpacing="xs" highlightOnHover aria-label="Events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th />
                  <Table.Th>Seq</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Record</Table.Th>
                  <Table.Th>Changed</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((event) => (
                  <EventRow key={event.id} event={event} />
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
      {log.hasNextPage && (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Load older events
          </Button>
        </Group>
      )}
    </>
  )
}
