// One related tab: the records that point at this one, newest first, keyset-paged with "Load more",
// and "Add" opening the create form with the reference already set (?account_id=...).
import { Button, Center, EmptyState, Group, Paper, Text } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { useRecordList } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { kindUiByName, lowerLabel } from '../../kinds.ts'
import { RecordTable, RecordTableSkeleton } from '../records/RecordTable.tsx'
import { formatCount } from '../records/useRecordCount.ts'
import type { Relation } from './relations.ts'

export function addLink(relation: Relation, id: string): string {
  return `/${relation.kind.path}/new?${relation.field.name}=${encodeURIComponent(id)}`
}

export function RelatedList({ relation, id, total }: { relation: Relation; id: string; total: number | undefined }) {
  const { kind, field, heading, columns } = relation
  const list = useRecordList(kind, { [field.name]: id })
  const records = list.data?.pages.flatMap((p) => p.data) ?? []
  const moreFailed = list.isFetchNextPageError ? list.error : null
  const Icon = kindUiByName(kind.name)?.icon
  const add = (
    <Button component={Link} to={addLink(relation, id)} size="xs" variant="light" leftSection={<IconPlus size={14} />}>
      Add {lowerLabel(kind)}
    </Button>
  )
  return (
    <Paper withBorder radius="md" shadow="xs" component="section" aria-label={heading}>
      <Group justify="space-between" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="sm" c="dimmed">
          {total === undefined ? '\u00a0' : total === 0 ? `No ${heading.toLowerCase()}` : `${formatCount(total)} ${total === 1 ? lowerLabel(kind) : heading.toLowerCase()}`}
        </Text>
        {add}
      </Group>
      {list.isPending ? (
        <RecordTableSkeleton columns={Math.min(columns.length, 3)} />
      ) : list.isError ? (
        <div style={{ padding: 16 }}>
          <ErrorState title={`Could not load ${heading.toLowerCase()}`} error={list.error} onRetry={() => void list.refetch()} />
        </div>
      ) : records.length === 0 ? (
        <EmptyState py={40} icon={Icon ? <Icon size={24} /> : undefined} variant="light" title={`No ${heading.toLowerCase()} yet`} description={`${heading} linked to this record show up here.`}>
          <EmptyState.Actions>{add}</EmptyState.Actions>
        </EmptyState>
      ) : (
        <>
          <RecordTable kind={kind} columns={columns} records={records} withCreated={false} />
          {list.hasNextPage && (
            <Center py="sm">
              <Button variant="default" size="xs" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
          {moreFailed && <ErrorState title="Could not load more" error={moreFailed} onRetry={() => void list.fetchNextPage()} />}
        </>
      )}
    </Paper>
  )
}
