// A link to a referenced record, labelled with that record's title (fetched in batches and cached).
import { Anchor, Skeleton, Text } from '@mantine/core'
import { Link } from 'react-router'
import { kindsByName } from '../../../../src/web-contracts.ts'
import { useReferencedRecord } from '../../api/queries.ts'
import { recordTitle, type KindName } from '../../kinds.ts'

export function ReferenceLink({ kindName, id }: { kindName: KindName; id: string }) {
  const kind = kindsByName[kindName]
  const record = useReferencedRecord(kind, id)
  if (record.isPending) return <Skeleton height={14} width={120} radius="sm" />
  if (record.isError) {
    return (
      <Text span size="sm" c="dimmed" title={id}>
        {kind.label} not found
      </Text>
    )
  }
  return (
    <Anchor component={Link} to={`/${kind.path}/${id}`} size="sm">
      {recordTitle(kind, record.data)}
    </Anchor>
  )
}
