// The list of one kind's records: search, filters, newest first, "Load more" following next_cursor,
// and how many records match in all (GET /{kind}/count with the same search and filters).
import { Badge, Button, Center, EmptyState, Group, Paper, Text } from '@mantine/core'
import { IconPlus, IconSearchOff } from '@tabler/icons-react'
import { Link, useParams, useSearchParams } from 'react-router'
import { useRecordList, type ListParams } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { kindUiByPath, listFilterFields, lowerLabel } from '../../kinds.ts'
import { ImportExportActions } from '../imports/ImportExportActions.tsx'
import { ActiveFilterChips } from './ActiveFilterChips.tsx'
import { ListFilters } from './ListFilters.tsx'
import { RecordTable, RecordTableSkeleton } from './RecordTable.tsx'
import { formatCount, useRecordCount } from './useRecordCount.ts'

export function RecordListPage() {
  const { kindPath } = useParams()
  const kindUi = kindUiByPath(kindPath)
  if (!kindUi) return <NotFoundPage />
  return <RecordList key={kindUi.kind.path} kindPath={kindUi.kind.path} />
}

function RecordList({ kindPath }: { kindPath: string }) {
  const { kind, icon: Icon, columns } = kindUiByPath(kindPath)!
  const [searchParams, setSearchParams] = useSearchParams()
  const q = searchParams.get('q') ?? ''
  const filters: ListParams = {}
  const chipFields = kind.fields.filter((f) => f.filter && !listFilterFields(kind).includes(f))
  for (const f of kind.fields.filter((x) => x.filter)) {
    const v = searchParams.get(f.name)
    if (v) filters[f.name] = v
  }
  const list = useRecordList(kind, { q: q || undefined, ...filters })
  const total = useRecordCount(kind, { q: q || undefined, ...filters })
  const records = list.data?.pages.flatMap((p) => p.data) ?? []
  const narrowed = Boolean(q) || Object.keys(filters).length > 0

  const setParam = (name: string, value: string | null) => {
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev)
        if (value) next.set(name, value)
        else next.delete(name)
        return next
      },
      { replace: true },
    )
  }

  const newButton = (
    <Button component={Link} to={`/${kind.path}/new`} leftSection={<IconPlus size={16} />}>
      New {lowerLabel(kind)}
    </Button>
  )

  return (
    <>
      <PageHeader
        title={kind.labelPlural}
        badges={
          total.isSuccess && total.data.count > 0 ? (
            <Badge variant="light" color="gray" size="lg" radius="sm" aria-label="Matching records">
              {formatCount(total.data.count)}
            </Badge>
          ) : null
        }
        actions={
          <>
            <ImportExportActions kind={kind} />
            {newButton}
          </>
        }
      />
      <ListFilters kind={kind} q={q} filters={filters} onSearch={(v) => setParam('q', v)} onFilter={setParam} />
      <ActiveFilterChips fields={chipFields} values={filters} onRemove={(name) => setParam(name, null)} />
      <Paper withBorder radius="md" shadow="xs">
        {list.isPending ? (
          <RecordTableSkeleton columns={columns.length} />
        ) : list.isError ? (
          <div style={{ padding: 16 }}>
            <ErrorState title={`Could not load ${kind.labelPlural.toLowerCase()}`} error={list.error} onRetry={() => void list.refetch()} />
          </div>
        ) : records.length === 0 ? (
          narrowed ? (
            <EmptyState
              py={56}
              icon={<IconSearchOff size={26} />}
              withIndicatorBackground
              title={`No ${kind.labelPlural.toLowerCase()} match`}
              description="Try another search or clear the filters."
            >
              <EmptyState.Actions>
                <Button variant="default" onClick={() => setSearchParams(new URLSearchParams(), { replace: true })}>
                  Clear search and filters
                </Button>
              </EmptyState.Actions>
            </EmptyState>
          ) : (
            <EmptyState
              py={56}
              icon={<Icon size={26} />}
              variant="light"
              title={`No ${kind.labelPlural.toLowerCase()} yet`}
              description={`${kind.labelPlural} you create or import will show up here, newest first.`}
            >
              <EmptyState.Actions>{newButton}</EmptyState.Actions>
            </EmptyState>
          )
        ) : (
          <RecordTable kind={kind} columns={columns} records={records} />
        )}
      </Paper>
      {list.isSuccess && records.length > 0 && (
        <Center mt="md" mb="xl">
          {list.hasNextPage ? (
            <Group gap="md">
              {total.isSuccess && (
                <Text size="sm" c="dimmed">
                  {formatCount(records.length)} of {formatCount(total.data.count)} shown
                </Text>
              )}
              <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
                Load more
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {records.length === 1 ? `1 ${lowerLabel(kind)}` : `All ${records.length} ${kind.labelPlural.toLowerCase()} shown`}
            </Text>
          )}
        </Center>
      )}
      {list.isFetchNextPageError && <ErrorState title="Could not load more" error={list.error} onRetry={() => void list.fetchNextPage()} />}
    </>
  )
}
