// The record page's tabs: the timeline, a case's comment thread, one tab per kind of related
// record with its exact count (GET /{kind}/count?<reference>=<id>), and the record's History (who
// changed what, with undo). The open tab is `?tab=` in the URL, so a link opens it. A case's
// Comments tab counts its thread (GET /cases/{id}/comments/count).
import { Badge, Tabs } from '@mantine/core'
import { IconHistory, IconListDetails, IconMessageCircle } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { kindUiByName, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { cairn, call } from '../../api/client.ts'
import { CaseComments, commentsKey } from '../cases/CaseComments.tsx'
import { formatCount, useRecordCount } from '../records/useRecordCount.ts'
import { RecordHistory } from './history/RecordHistory.tsx'
import { RelatedList } from './RelatedList.tsx'
import { relationsTo, type Relation } from './relations.ts'
import { RecordTimeline } from './timeline/RecordTimeline.tsx'
import { hasEvents } from './timeline/recordEvents.ts'
import { activityRefField } from './timeline/useTimeline.ts'

function CountBadge({ value }: { value: number | undefined }) {
  if (value === undefined) return null
  return (
    <Badge size="sm" variant="light" color={value === 0 ? 'gray' : undefined} radius="sm">
      {formatCount(value)}
    </Badge>
  )
}

function useRelationCount(relation: Relation, id: string) {
  return useRecordCount(relation.kind, { [relation.field.name]: id })
}

function RelationTab({ relation, id }: { relation: Relation; id: string }) {
  const count = useRelationCount(relation, id)
  const Icon = kindUiByName(relation.kind.name)?.icon
  if (relation.optional && !count.data?.count) return null
  return (
    <Tabs.Tab value={relation.key} leftSection={Icon ? <Icon size={16} stroke={1.6} /> : undefined} rightSection={<CountBadge value={count.data?.count} />}>
      {relation.heading}
    </Tabs.Tab>
  )
}

function RelationPanel({ relation, id }: { relation: Relation; id: string }) {
  const count = useRelationCount(relation, id)
  return <RelatedList relation={relation} id={id} total={count.data?.count} />
}

function CommentsTab({ caseId }: { caseId: string }) {
  const count = useQuery({
    queryKey: [...commentsKey(caseId), 'count'],
    queryFn: () => call(() => cairn.GET('/api/v1/cases/{id}/comments/count', { params: { path: { id: caseId } } })),
  })
  return (
    <Tabs.Tab value="comments" leftSection={<IconMessageCircle size={16} stroke={1.6} />} rightSection={<CountBadge value={count.data?.count} />}>
      Comments
    </Tabs.Tab>
  )
}

/** Whether a record of this kind has a timeline (products do not: no events, no activities). */
function hasTimeline(kind: RecordKind): boolean {
  return kind.name === 'case' || hasEvents(kind) || activityRefField(kind) !== undefined
}

export function RecordTabs({ kind, record }: { kind: RecordKind; record: CrmRecord }) {
  const id = record.id
  const relations = relationsTo(kind)
  const isCase = kind.name === 'case'
  const timeline = hasTimeline(kind)
  const [params, setParams] = useSearchParams()
  const values = [...(isCase ? ['comments'] : []), ...(timeline ? ['timeline'] : []), ...relations.map((r) => r.key), 'history']
  const asked = params.get('tab')
  // A case opens on its thread: that is where its work happens.
  const tab = asked && values.includes(asked) ? asked : values[0]!
  const select = (value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev)
        next.set('tab', value ?? 'timeline')
        return next
      },
      { replace: true, preventScrollReset: true },
    )

  return (
    <Tabs value={tab} onChange={select} keepMounted={false}>
      <Tabs.List>
        {isCase && <CommentsTab caseId={id} />}
        {timeline && (
          <Tabs.Tab value="timeline" leftSection={<IconHistory size={16} stroke={1.6} />}>
            Timeline
          </Tabs.Tab>
        )}
        {relations.map((r) => (
          <RelationTab key={r.key} relation={r} id={id} />
        ))}
        <Tabs.Tab value="history" leftSection={<IconListDetails size={16} stroke={1.6} />}>
          History
        </Tabs.Tab>
      </Tabs.List>
      {timeline && (
        <Tabs.Panel value="timeline" pt="md">
          <RecordTimeline kind={kind} id={id} />
        </Tabs.Panel>
      )}
      <Tabs.Panel value="history" pt="md">
        <RecordHistory kind={kind} record={record} />
      </Tabs.Panel>
      {isCase && (
        <Tabs.Panel value="comments" pt="md">
          <CaseComments caseId={id} />
        </Tabs.Panel>
      )}
      {relations.map((r) => (
        <Tabs.Panel key={r.key} value={r.key} pt="md">
          <RelationPanel relation={r} id={id} />
        </Tabs.Panel>
      ))}
    </Tabs>
  )
}
