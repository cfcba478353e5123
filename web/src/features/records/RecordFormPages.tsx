// The New <kind> and Edit <kind> pages: load what is needed, run the mutation, go to the record.
import { Skeleton, Stack } from '@mantine/core'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { useCreateRecord, useRecord, useUpdateRecord } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { NotFoundPage } from '../../components/NotFoundPage.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { ApiError } from '../../api/client.ts'
import { kindUiByPath, lowerLabel, recordTitle, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { RecordForm } from './RecordForm.tsx'

export function CreateRecordPage() {
  const { kindPath } = useParams()
  const kindUi = kindUiByPath(kindPath)
  if (!kindUi) return <NotFoundPage />
  return <CreateForm key={kindUi.kind.path} kind={kindUi.kind} />
}

function CreateForm({ kind }: { kind: RecordKind }) {
  const navigate = useNavigate()
  const create = useCreateRecord(kind)
  const [searchParams] = useSearchParams()
  // ?account_id=... (from a record's related list) pre-fills that field.
  const defaults = Object.fromEntries([...searchParams].filter(([name]) => kind.fields.some((f) => f.name === name && !f.readOnly)))
  return (
    <>
      <PageHeader eyebrow={kind.labelPlural} title={`New ${lowerLabel(kind)}`} />
      <RecordForm
        kind={kind}
        defaults={defaults}
        submitting={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate(body, { onSuccess: (record) => navigate(`/${kind.path}/${record.id}`) })}
        onCancel={() => navigate(`/${kind.path}`)}
      />
    </>
  )
}

export function EditRecordPage() {
  const { kindPath, id } = useParams()
  const kindUi = kindUiByPath(kindPath)
  if (!kindUi || !id) return <NotFoundPage />
  return <EditLoader key={`${kindUi.kind.path}/${id}`} kind={kindUi.kind} id={id} />
}

function EditLoader({ kind, id }: { kind: RecordKind; id: string }) {
  const record = useRecord(kind, id)
  if (record.isPending) {
    return (
      <Stack>
        <Skeleton height={36} width={280} />
        <Skeleton height={280} />
      </Stack>
    )
  }
  if (record.isError) {
    if (record.error instanceof ApiError && record.error.status === 404) return <NotFoundPage what={lowerLabel(kind)} />
    return <ErrorState error={record.error} onRetry={() => void record.refetch()} />
  }
  return <EditForm kind={kind} record={record.data} />
}

function EditForm({ kind, record }: { kind: RecordKind; record: CrmRecord }) {
  const navigate = useNavigate()
  const update = useUpdateRecord(kind, record.id)
  const back = () => navigate(`/${kind.path}/${record.id}`)
  return (
    <>
      <PageHeader eyebrow={`Edit ${lowerLabel(kind)}`} title={recordTitle(kind, record)} />
      <RecordForm
        kind={kind}
        record={record}
        submitting={update.isPending}
        error={update.error}
        onSubmit={(body) => (Object.keys(body).length === 0 ? back() : update.mutate(body, { onSuccess: back }))}
        onCancel={back}
      />
    </>
  )
}
