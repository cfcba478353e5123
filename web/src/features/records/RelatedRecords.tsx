// On a record page: the records of other kinds that point at this one (an account's contacts,
// opportunities, cases...), a few each, with links to the full filtered list and to create one.
import { Anchor, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { useRecordList } from '../../api/queries.ts'
import { appKinds, fieldOf, lowerLabel, recordTitle, type FieldDef, type RecordKind } from '../../kinds.ts'
import { FieldValue } from './FieldValue.tsx'

const SHOWN = 5

interface Relation {
  kind: RecordKind
  field: FieldDef
  columns: FieldDef[]
}

function relationsTo(kind: RecordKind): Relation[] {
  const out: Relation[] = []
  for (const ui of appKinds) {
    for (const field of ui.kind.fields) {
      if (field.type === 'ref' && field.ref === kind.name && field.filter && !field.readOnly) {
        const columns = ui.columns
          .map((n) => fieldOf(ui.kind, n))
          .filter((f): f is FieldDef => Boolean(f) && f!.name !== field.name && f!.type !== 'ref')
          .slice(0, 2)
        out.push({ kind: ui.kind, field, columns })
      }
    }
  }
  return out
}

function RelatedList({ relation, id }: { relation: Relation; id: string }) {
  const { kind, field, columns } = relation
  const list = useRecordList(kind, { [field.name]: id })
  const records = list.data?.pages[0]?.data ?? []
  const more = (list.data?.pages[0]?.has_more ?? false) || records.length > SHOWN
  const heading = field.name === 'parent_account_id' ? 'Child accounts' : kind.labelPlural
  if (list.isSuccess && records.length === 0) return null
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={4}>{heading}</Title>
          {list.isSuccess && (
            <Badge variant="light" color="gray" radius="sm">
              {records.length}
              {list.data.pages[0]!.has_more ? '+' : ''}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          {more && (
            <Anchor component={Link} to={`/${kind.path}?${field.name}=${id}`} size="sm">
              View all
            </Anchor>
          )}
          <Button component={Link} to={`/${kind.path}/new?${field.name}=${id}`} size="xs" variant="subtle" leftSection={<IconPlus size={14} />}>
            New {lowerLabel(kind)}
          </Button>
        </Group>
      </Group>
      {list.isPending ? (
        <Stack gap="xs">
          <Skeleton height={14} />
          <Skeleton height={14} />
        </Stack>
      ) : list.isError ? (
        <Text size="sm" c="red">
          {list.error.message}
        </Text>
      ) : (
        <Table verticalSpacing={6}>
          <Table.Tbody>
            {records.slice(0, SHOWN).map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/${kind.path}/${r.id}`} size="sm" fw={500}>
                    {recordTitle(kind, r)}
                  </Anchor>
                </Table.Td>
                {columns.map((c) => (
                  <Table.Td key={c.name}>
                    <FieldValue field={c} record={r} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  )
}

export function RelatedRecords({ kind, id }: { kind: RecordKind; id: string }) {
  const relations = relationsTo(kind)
  if (relations.length === 0) return null
  return (
    <Stack gap="md">
      {relations.map((r) => (
        <RelatedList key={`${r.kind.path}-${r.field.name}`} relation={r} id={id} />
      ))}
    </Stack>
  )
}
