// The records of a list page as a table: the title as a link, the kind's columns, created date.
import { Anchor, Skeleton, Table, Text } from '@mantine/core'
import { Link } from 'react-router'
import { fieldOf, formatDateTime, recordTitle, type CrmRecord, type FieldDef, type RecordKind } from '../../kinds.ts'
import { FieldValue } from './FieldValue.tsx'
import type { CustomField } from '../../api/customFields.ts'
import { CustomFieldValue } from './CustomFieldDetails.tsx'

function columnsOf(kind: RecordKind, names: string[]): FieldDef[] {
  return names.map((n) => fieldOf(kind, n)).filter((f): f is FieldDef => Boolean(f))
}

export function RecordTable({ kind, columns, records, customColumns = [] }: { kind: RecordKind; columns: string[]; records: CrmRecord[]; customColumns?: CustomField[] }) {
  const fields = columnsOf(kind, columns)
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{kind.name === 'contact' || kind.name === 'lead' ? 'Name' : fieldOf(kind, kind.titleFields[0]!)?.label}</Table.Th>
            {fields.map((f) => (
              <Table.Th key={f.name}>{f.label}</Table.Th>
            ))}
            {customColumns.map((d) => (
              <Table.Th key={`custom.${d.name}`}>{d.label}</Table.Th>
            ))}
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record) => (
            <Table.Tr key={record.id}>
              <Table.Td>
                <Anchor component={Link} to={`/${kind.path}/${record.id}`} fw={500} size="sm">
                  {recordTitle(kind, record)}
                </Anchor>
              </Table.Td>
              {fields.map((f) => (
                <Table.Td key={f.name}>
                  <FieldValue field={f} record={record} />
                </Table.Td>
              ))}
              {customColumns.map((d) => (
                <Table.Td key={`custom.${d.name}`}>
                  <CustomFieldValue def={d} value={record.custom_fields?.[d.name]} />
                </Table.Td>
              ))}
              <Table.Td>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(record.created_at)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

export function RecordTableSkeleton({ columns }: { columns: number }) {
  return (
    <Table verticalSpacing="sm" horizontalSpacing="md" aria-busy="true" aria-label="Loading records">
      <Table.Tbody>
        {Array.from({ length: 8 }, (_, row) => (
          <Table.Tr key={row}>
            {Array.from({ length: columns + 2 }, (_, col) => (
              <Table.Td key={col}>
                <Skeleton height={12} width={col === 0 ? '70%' : '55%'} radius="sm" />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
