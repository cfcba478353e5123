// Field by field, per object: the source field and its type, what happens to it, where it lands,
// whether the value survives exactly, and the analysis' notes. One expandable panel per object.
import { Accordion, Badge, Group, Paper, Table, Text, Title } from '@mantine/core'
import type { ObjectAnalysis } from '../../../api/migration.ts'
import { MAPPING_STATUS, targetLabel } from '../migrationText.ts'
import { ACTION_LABEL, mappingTarget, SourceFieldName } from './SourceFieldName.tsx'

/** What happens to the object's fields, counted: mapped (some with a loss), kept as custom fields, left out. */
function FieldCounts({ o }: { o: ObjectAnalysis }) {
  const counts = [
    { n: o.fields.filter((f) => f.action === 'field' || f.action === 'reference' || f.action === 'owner').length, label: 'mapped', color: 'teal' },
    { n: o.fields.filter((f) => f.status === 'lossy').length, label: 'lossy', color: 'yellow' },
    { n: o.fields.filter((f) => f.action === 'custom_field').length, label: 'custom', color: 'blue' },
    { n: o.fields.filter((f) => f.action === 'ignore').length, label: 'not imported', color: 'gray' },
  ]
  return (
    <Group gap={6} wrap="nowrap">
      {counts
        .filter((c) => c.n > 0)
        .map((c) => (
          <Badge key={c.label} size="sm" variant="light" color={c.color} styles={{ label: { overflow: 'visible' } }}>
            {c.n} {c.label}
          </Badge>
        ))}
    </Group>
  )
}

function MappingTable({ o }: { o: ObjectAnalysis }) {
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table verticalSpacing={6} fz="sm" withTableBorder aria-label={`${o.label} field mapping`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Source field</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>In Cairn</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Notes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {o.fields.map((f) => (
            <Table.Tr key={f.source}>
              <Table.Td>
                <SourceFieldName field={f} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {f.source_type}
                </Text>
              </Table.Td>
              <Table.Td>{ACTION_LABEL[f.action]}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace" c={f.action === 'ignore' ? 'dimmed' : undefined}>
                  {mappingTarget(f)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={MAPPING_STATUS[f.status].color}>
                  {MAPPING_STATUS[f.status].label}
                </Badge>
              </Table.Td>
              <Table.Td maw={320}>
                {f.notes.map((n) => (
                  <Text key={n} size="xs" c="dimmed">
                    {n}
                  </Text>
                ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

export function FieldMappingDetails({ objects }: { objects: ObjectAnalysis[] }) {
  const mapped = objects.filter((o) => o.fields.length > 0)
  return (
    <Paper withBorder radius="md" shadow="xs">
      <Title order={4} p="md" pb={4}>
        Field mapping
      </Title>
      <Text size="sm" c="dimmed" px="md" pb="sm">
        Open an object to see where each field goes. You can change any mapping in Configure.
      </Text>
      <Accordion multiple chevronPosition="left" keepMounted={false} aria-label="Field mapping per object">
        {mapped.map((o) => (
          <Accordion.Item key={o.name} value={o.name}>
            <Accordion.Control aria-label={`${o.label} fields`}>
              <Group justify="space-between" wrap="nowrap" pr="sm">
                <Group gap="sm" wrap="nowrap">
                  <Text fw={600} size="sm">
                    {o.label}
                  </Text>
                  <Text size="sm" c="dimmed">
                    → {targetLabel(o.target)} · {o.fields.length} fields
                  </Text>
                </Group>
                <FieldCounts o={o} />
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <MappingTable o={o} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Paper>
  )
}
