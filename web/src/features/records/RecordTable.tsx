// The records of a list page as a table: the title as a link, the kind's columns, created date.
import { Anchor, Skeleton, Table, Text } from '@mantine/core'
import { Link } from 'react-router'
import { fieldOf, formatDateTime, recordTitle, type CrmRecord, type FieldDef, type RecordKind } from '../../kinds.ts'
import { FieldValue } from './FieldValue.tsx'
import { SortableTh, type SortControl } from '../lists/SortableTh.tsx'
import type { CustomField } from '../../api/customFields.ts'
import { CustomFieldValue } from './CustomFieldDetails.tsx'

function columnsOf(kind: RecordKind, names: string[]): FieldDef[] {
  return names.map((n) => fieldOf(kind, n)).filter((f): f is FieldDef => Boolean(f))
}

/** The field the title column sorts by: a sortable title field, or a person's last name. */
function titleSortField(kind: RecordKind, control: SortControl | undefined): string | undefined {
  if (!control) return undefined
  return kind.titleFields.find((f) => control.sortable.has(f)) ?? (control.sortable.has('last_name') ? 'last_name' : undefined)
}

export function RecordTable({
  kind,
  columns,
  records,
  sort,
  withCreated = true,
  customColumns = [],
}: {
  kind: RecordKind
  columns: string[]
  records: CrmRecord[]
  sort?: SortControl
  withCreated?: boolean
  /** Custom fields shown as columns (not sortable: lists sort by built-in fields only). */
  customColumns?: CustomField[]
}) {
  const fields = columnsOf(kind, columns)
  return (
    <Table.ScrollContainer minWidth={withCreated ? 720 : 560}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            <SortableTh field={titleSortField(kind, sort)} control={sort}>
              {kind.name === 'contact' || kind.name === 'lead' ? 'Name' : fieldOf(kind, kind.titleFields[0]!)?.label}
            </SortableTh>
            {fields.map((f) => (
              <SortableTh key={f.name} field={f.name} control={sort}>
                {f.label}
              </SortableTh>
            ))}
            {customColumns.map((d) => (
              <Table.Th key={`custom.${d.name}`}>{d.label}</Table.Th>
            ))}
            {withCreated && (
              <SortableTh field="created_at" control={sort}>
                Created
              </SortableTh>
            )}
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
              {withCreated && (
                <Table.Td>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(record.created_at)}
                  </Text>
                </Table.Td>
              )}
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
