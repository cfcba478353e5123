// One record: header (title, badges, actions), its fields beside its tabs (timeline, a case's
// comments, related records), and the kind's own tools (escalation, conversion, stage).
import { Anchor, Badge, Breadcrumbs, Button, Grid, Skeleton, Stack, Text } from '@mantine/core'
import { IconPencil } from '@tabler/icons-react'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { useRecord } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { BADGE_FIELDS, badgeColor, fieldOf, humanize, kindUiByPath, lowerLabel, recordTitle, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { EscalateButton } from '../cases/EscalateButton.tsx'
import { ConvertLeadButton } from '../leads/ConvertLeadModal.tsx'
import { StageControl } from '../opportunities/StageControl.tsx'
import { DeleteRecordButton } from './DeleteRecordButton.tsx'
import { RecordDetails } from './RecordDetails.tsx'
import { RecordTabs } from '../record-page/RecordTabs.tsx'

export function RecordPage() {
  const { kindPath, id } = useParams()
  const kindUi = kindUiByPath(kindPath)
  if (!kindUi || !id) return <NotFoundPage />
  return <RecordView key={`${kindUi.kind.path}/${id}`} kind={kindUi.kind} id={id} />
}

function RecordView({ kind, id }: { kind: RecordKind; id: string }) {
  const record = useRecord(kind, id)
  const crumbs = (
    <Breadcrumbs mb="xs" fz="sm">
      <Anchor component={Link} to={`/${kind.path}`} size="sm">
        {kind.labelPlural}
      </Anchor>
      <Text size="sm" c="dimmed" truncate maw={320}>
        {record.data ? recordTitle(kind, record.data) : '…'}
      </Text>
    </Breadcrumbs>
  )
  if (record.isPending) {
    return (
      <Stack aria-busy="true">
        {crumbs}
        <Skeleton height={34} width={320} />
        <Skeleton height={220} />
        <Skeleton height={120} />
      </Stack>
    )
  }
  if (record.isError) {
    if (record.error instanceof ApiError && record.error.status === 404) return <NotFoundPage what={lowerLabel(kind)} />
    return (
      <>
        {crumbs}
        <ErrorState title={`Could not load this ${lowerLabel(kind)}`} error={record.error} onRetry={() => void record.refetch()} />
      </>
    )
  }
  const r = record.data
  const title = recordTitle(kind, r)
  return (
    <>
      {crumbs}
      <PageHeader
        eyebrow={kind.label}
        title={title}
        badges={<RecordBadges kind={kind} record={r} />}
        actions={
          <>
            {kind.name === 'lead' && <ConvertLeadButton lead={r} />}
            {kind.name === 'case' && <EscalateButton record={r} />}
            <Button component={Link} to={`/${kind.path}/${r.id}/edit`} variant="default" leftSection={<IconPencil size={16} />}>
              Edit
            </Button>
            <DeleteRecordButton kind={kind} id={r.id} title={title} />
          </>
        }
      />
      {kind.name === 'opportunity' && (
        <div style={{ marginBottom: 'var(--mantine-spacing-md)' }}>
          <StageControl record={r} />
        </div>
      )}
      {/* Fields on the side, the work (timeline, thread, related records, history) in the middle. */}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <RecordDetails kind={kind} record={r} compact />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <RecordTabs kind={kind} record={r} />
        </Grid.Col>
      </Grid>
    </>
  )
}

function RecordBadges({ kind, record }: { kind: RecordKind; record: CrmRecord }) {
  const badges = BADGE_FIELDS.map((name) => fieldOf(kind, name))
    .filter((f) => f && f.type === 'enum' && record[f.name])
    .map((f) => {
      const v = String(record[f!.name])
      return (
        <Badge key={f!.name} variant="light" color={badgeColor(v)} radius="sm" title={f!.label}>
          {f!.name === 'priority' ? `${humanize(v)} priority` : humanize(v)}
        </Badge>
      )
    })
  if (record.is_escalated === true && record.status !== 'escalated') {
    badges.push(
      <Badge key="escalated" color="red" variant="filled" radius="sm">
        Escalated
      </Badge>,
    )
  }
  return <>{badges}</>
}
