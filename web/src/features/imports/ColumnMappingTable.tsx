// The review of a file's columns before an import: each column with a sample value and the field
// it fills (proposed from the header, as the server would), changeable or left out.
import { Badge, Select, Table, Text } from '@mantine/core'
import type { FieldDef } from '../../kinds.ts'

export const LEAVE_OUT = '__leave_out__'

export function ColumnMappingTable({
  columns,
  sample,
  fields,
  mapping,
  onChange,
}: {
  columns: string[]
  sample: string[]
  fields: FieldDef[]
  mapping: Record<string, string | null>
  onChange(column: string, field: string | null): void
}) {
  const taken = new Map(Object.entries(mapping).filter(([, f]) => f !== null).map(([c, f]) => [f as string, c]))
  const options = [{ value: LEAVE_OUT, label: "Don't import" }, ...fields.map((f) => ({ value: f.name, label: `${f.label}${f.required ? ' (required)' : ''}` }))]
  return (
    <Table.ScrollContainer minWidth={520} maxHeight={360}>
      <Table verticalSpacing="xs" stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column in the file</Table.Th>
            <Table.Th>First row</Table.Th>
            <Table.Th w={240}>Imports into</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {columns.map((column, i) => {
            const field = mapping[column] ?? null
            const clash = field !== null && taken.get(field) !== column
            return (
              <Table.Tr key={`${column}-${i}`} data-column={column}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {column || <em>(no title)</em>}
                  </Text>
                </Table.Td>
                <Table.Td maw={200}>
                  <Text size="sm" c="dimmed" truncate="end">
                    {sample[i] || '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Field for column ${column}`}
                    size="xs"
                    data={options}
                    value={field ?? LEAVE_OUT}
                    onChange={(v) => onChange(column, v === LEAVE_OUT || v === null ? null : v)}
                    allowDeselect={false}
                    error={clash ? 'Another column imports into this field' : undefined}
                    rightSection={field === null ? <Badge size="xs" variant="light" color="gray">skip</Badge> : undefined}
                    rightSectionWidth={field === null ? 48 : undefined}
                  />
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
