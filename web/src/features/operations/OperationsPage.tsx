// Data -> Operations (/app/operations): recent operations, newest first: each request, batch, CSV
// import run, migration run or assistant's tool call, with who made it (and through which API
// client), the channel, what it changed and whether it was undone. Administrators see everyone's
// and can filter by person and API client; members see their own. The filters live in the URL.
import { Anchor, Center, Group, Paper, Select, Skeleton, Stack, Switch, Table, Text, ThemeIcon, Tooltip } from '@mantine/core'
import { IconArrowsShuffle } from '@tabler/icons-react'
import { Link, useSearchParams } from 'react-router'
import { useMembers } from '../../api/members.ts'
import { useOperations, type Operation, type OperationFilters } from '../../api/operations.ts'
import { useMe } from '../../api/queries.ts'
import { useApiClients } from '../../api/settings.ts'
import { LoadMore } from '../../components/LoadMore.tsx'
import { ErrorState } from '../../components/ErrorState.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { timeAgo } from '../../components/time.ts'
import { formatDateTime } from '../../kinds.ts'
import { CHANNEL_LABELS, countsText, kindsText } from './actorText.ts'
import { ActorName, ChannelBadge } from './ActorName.tsx'
import { OperationStateBadge } from './OperationStateBadge.tsx'

const FILTERS = ['channel', 'user_id', 'client_id', 'since'] as const
const DAY_MS = 86_400_000

function OperationRow({ op }: { op: Operation }) {
  return (
    <Table.Tr data-operation={op.id}>
      <Table.Td>
        <Tooltip label={formatDateTime(op.started_at)} withArrow>
          <Anchor component={Link} to={`/operations/${op.id}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {timeAgo(op.started_at)}
          </Anchor>
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <ActorName actor={op.actor} />
      </Table.Td>
      <Table.Td>
        <ChannelBadge channel={op.channel} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{countsText(op.counts)}</Text>
        <Text size="xs" c="dimmed">
          {kindsText(op.kinds)}
        </Text>
      </Table.Td>
      <Table.Td>
        <OperationStateBadge op={op} />
      </Table.Td>
    </Table.Tr>
  )
}

function useFilterOptions(isAdmin: boolean) {
  const members = useMembers(isAdmin)
  const clients = useApiClients(isAdmin)
  return {
    people: (members.data?.pages.flatMap((p) => p.data) ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email })),
    clients: (clients.data ?? []).map((c) => ({ value: c.client_id, label: c.name })),
  }
}

export function OperationsPage() {
  const me = useMe()
  const isAdmin = me.data?.role === 'admin'
  const [params, setParams] = useSearchParams()
  const filters: OperationFilters = Object.fromEntries(FILTERS.flatMap((f) => (params.get(f) ? [[f, params.get(f)!]] : [])))
  const setFilter = (name: (typeof FILTERS)[number], value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev)
        if (value) next.set(name, value)
        else next.delete(name)
        return next
      },
      { replace: true },
    )
  const options = useFilterOptions(isAdmin)
  const list = useOperations(filters)
  const operations = list.data?.pages.flatMap((p) => p.data) ?? []
  const filtered = Object.keys(filters).length > 0

  return (
    <>
      <PageHeader eyebrow="Data" title="Operations" />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        Each request, batch, CSV import, migration run and assistant’s tool call is one operation. Open one to see what it changed and undo it.
        {isAdmin ? ' You see everyone’s operations.' : ' You see the operations you made.'}
      </Text>
      <Group mb="md" align="flex-end" gap="md">
        <Select
          label="Channel"
          placeholder="Any channel"
          data={Object.entries(CHANNEL_LABELS).map(([value, label]) => ({ value, label }))}
          value={filters.channel ?? null}
          onChange={(v) => setFilter('channel', v)}
          clearable
          w={200}
        />
        {isAdmin && (
          <>
            <Select label="Person" placeholder="Anyone" data={options.people} value={filters.user_id ?? null} onChange={(v) => setFilter('user_id', v)} clearable searchable w={220} />
            <Select label="API client" placeholder="Any client" data={options.clients} value={filters.client_id ?? null} onChange={(v) => setFilter('client_id', v)} clearable searchable w={220} />
          </>
        )}
        <Switch
          label="Last 24 hours"
          checked={Boolean(filters.since)}
          onChange={(e) => setFilter('since', e.currentTarget.checked ? new Date(Date.now() - DAY_MS).toISOString() : null)}
          mb={8}
        />
      </Group>
      {list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} title="Could not load the operations" />
      ) : (
        <Paper withBorder radius="md">
          {list.isPending ? (
            <Stack p="md" gap="sm">
              {[0, 1, 2, 3, 4].map((i) => (
                <Skeleton key={i} height={32} />
              ))}
            </Stack>
          ) : operations.length === 0 ? (
            <Center py={56}>
              <Stack align="center" gap="xs" maw={420}>
                <ThemeIcon size={48} radius="xl" variant="light">
                  <IconArrowsShuffle size={26} />
                </ThemeIcon>
                <Text fw={600}>{filtered ? 'No operations match' : 'No operations yet'}</Text>
                <Text size="sm" c="dimmed" ta="center">
                  {filtered ? 'Clear a filter to see more.' : 'Changes made in the app, through the API, by an assistant or by an import appear here.'}
                </Text>
              </Stack>
            </Center>
          ) : (
            <Table verticalSpacing="sm" highlightOnHover aria-label="Operations">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>By</Table.Th>
                  <Table.Th>Channel</Table.Th>
                  <Table.Th>Changes</Table.Th>
                  <Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {operations.map((op) => (
                  <OperationRow key={op.id} op={op} />
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      )}
      <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onLoad={() => void list.fetchNextPage()} />
    </>
  )
}
