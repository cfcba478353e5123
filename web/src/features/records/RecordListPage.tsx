// The list of one kind's records: search, filters (equality and ranges), sortable columns, the
// exact count (GET /{kind}/count with the same filters) and keyset pages with Previous / Next.
// The whole view lives in the URL (lists/useListView.ts): a link shares it, Back undoes a change.
import { Alert, Badge, Box, Button, EmptyState, Paper, Text } from '@mantine/core'
import { IconPlus, IconSearchOff } from '@tabler/icons-react'
import { Link, useParams, useSearchParams } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { PAGE_SIZE, useMe } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { kindUiByPath, listFilterFields, lowerLabel } from '../../kinds.ts'
import { ActiveRangeChips } from '../lists/ActiveRangeChips.tsx'
import { ListPager } from '../lists/ListPager.tsx'
import { filterParams, isNarrowed, sortableNames } from '../lists/listUrlState.ts'
import { RangeFilters } from '../lists/RangeFilters.tsx'
import { useListView } from '../lists/useListView.ts'
import { useRecordPage } from '../lists/useRecordPage.ts'
import { ImportExportActions } from '../imports/ImportExportActions.tsx'
import { ActiveFilterChips } from './ActiveFilterChips.tsx'
import { OwnerFilter } from '../owners/OwnerFilter.tsx'
import { ListFilters } from './ListFilters.tsx'
import { RecordTable, RecordTableSkeleton } from './RecordTable.tsx'
import { formatCount, useRecordCount } from './useRecordCount.ts'
import { useCustomFields } from '../../api/customFields.ts'
import { useCustomColumns } from './CustomColumnsMenu.tsx'
import { ColumnsMenu, CUSTOM_PREFIX } from '../lists/ColumnsMenu.tsx'
import { FieldFilters } from '../lists/FieldFilters.tsx'
import { ViewSwitcher } from '../lists/ViewSwitcher.tsx'
import type { ViewKind } from '../../api/views.ts'
import { CustomFieldFilterButton, CustomFilterChips, customFilterParams } from './CustomFieldFilters.tsx'

export function RecordListPage() {
  const { kindPath } = useParams()
  const kindUi = kindUiByPath(kindPath)
  if (!kindUi) return <NotFoundPage />
  return <RecordList key={kindUi.kind.path} kindPath={kindUi.kind.path} />
}

function RecordList({ kindPath }: { kindPath: string }) {
  const { kind, icon: Icon, columns } = kindUiByPath(kindPath)!
  const me = useMe()
  const controls = useListView(kind)
  const { view } = controls
  // Custom fields: `custom_fields.<name>` filters ride in the URL beside the built-in ones.
  const [searchParams] = useSearchParams()
  const custom = useCustomFields(kind.name)
  const customFilters = customFilterParams(searchParams)
  // Columns: the URL's choice (a saved view's), else the kind's defaults and the custom ones this browser remembered.
  const [rememberedCustom] = useCustomColumns(kind.name)
  const chosen = searchParams.get('columns')?.split(',').filter(Boolean) ?? [...columns, ...rememberedCustom.map((n) => `${CUSTOM_PREFIX}${n}`)]
  const builtInColumns = chosen.filter((c) => !c.startsWith(CUSTOM_PREFIX))
  const customColumns = chosen.flatMap((c) => custom.fields.filter((d) => c === `${CUSTOM_PREFIX}${d.name}`))
  const filters = { ...filterParams(view), ...customFilters }
  const list = useRecordPage(kind, { ...filters, sort: view.sort || undefined }, view.cursor)
  const total = useRecordCount(kind, filters)
  const records = list.data?.data ?? []
  const narrowed = isNarrowed(view) || Object.keys(customFilters).length > 0
  // The owner has its own control (owners/OwnerFilter), not a chip.
  const chipFields = kind.fields.filter((f) => f.filter && f.type !== 'user' && !listFilterFields(kind).includes(f))
  const hasOwner = kind.fields.some((f) => f.name === 'owner_id' && f.filter)
  // Amounts are sorted and ranged over only by those who may read them (erp:read).
  const hidden = me.data && !me.data.scopes.includes('erp:read') ? kind.fields.filter((f) => f.erp).map((f) => f.name) : []
  const sortable = new Set([...sortableNames(kind)].filter((n) => !hidden.includes(n)))

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
          total.isSuccess && (total.data.count > 0 || narrowed) ? (
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
      <Box mb="sm">
        <ViewSwitcher kind={kind.name as ViewKind} allLabel={`All ${kind.labelPlural.toLowerCase()}`} />
      </Box>
      <ListFilters kind={kind} q={view.q} filters={view.filters} onSearch={controls.setQuery} onFilter={controls.setParam}>
        {hasOwner && <OwnerFilter value={view.filters.owner_id} onChange={(value) => controls.setParam('owner_id', value)} />}
        <RangeFilters kind={kind} ranges={view.ranges} hidden={hidden} onApply={controls.setParams} />
        <CustomFieldFilterButton defs={custom.fields} onApply={controls.setParams} />
        <FieldFilters kind={kind} values={view.filters} onFilter={controls.setParam} />
        <ColumnsMenu kind={kind} defs={custom.fields} shown={chosen} onChange={(names) => controls.setParam('columns', names.join(',') || null)} />
      </ListFilters>
      <ActiveFilterChips fields={chipFields} values={view.filters} onRemove={(name) => controls.setParam(name, null)} />
      <ActiveRangeChips kind={kind} ranges={view.ranges} onRemove={(key) => controls.setParam(key, null)} />
      <CustomFilterChips defs={custom.fields} params={customFilters} onRemove={(name) => controls.setParam(name, null)} />
      <Paper withBorder radius="md" shadow="xs">
        {list.isPending ? (
          <RecordTableSkeleton columns={columns.length} />
        ) : list.isError ? (
          <div style={{ padding: 16 }}>
            {list.error instanceof ApiError && list.error.code === 'invalid_cursor' ? (
              // A link to a page whose starting record is long gone: the list itself is fine.
              <Alert color="yellow" variant="light" title="This page of the list is no longer available" role="alert">
                <Text size="sm" mb="sm">
                  The record it started after no longer exists, or the link was changed. The list itself is fine.
                </Text>
                <Button size="xs" variant="default" onClick={() => controls.setParam('cursor', null)}>
                  Go to the first page
                </Button>
              </Alert>
            ) : (
              <ErrorState title={`Could not load ${kind.labelPlural.toLowerCase()}`} error={list.error} onRetry={() => void list.refetch()} />
            )}
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
                <Button variant="default" onClick={controls.clear}>
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
          // While another page or order loads, the current one stays, dimmed.
          <Box aria-busy={list.isPlaceholderData} style={{ opacity: list.isPlaceholderData ? 0.55 : 1, transition: 'opacity 120ms' }}>
            <RecordTable kind={kind} columns={builtInColumns} records={records} customColumns={customColumns} sort={{ sort: view.sort, sortable, onSort: controls.setSort }} />
          </Box>
        )}
      </Paper>
      {list.isSuccess && records.length > 0 && (
        <ListPager
          pageIndex={controls.pageIndex}
          pageSize={PAGE_SIZE}
          shown={records.length}
          total={total.data?.count}
          hasPrevious={Boolean(view.cursor)}
          hasNext={Boolean(list.data.has_more && list.data.next_cursor)}
          loading={list.isPlaceholderData}
          onPrevious={controls.previous}
          onNext={() => list.data.next_cursor && controls.next(list.data.next_cursor)}
        />
      )}
    </>
  )
}
