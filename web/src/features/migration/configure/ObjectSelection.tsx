// Which source objects to import: every object the analysis found importable is ticked by default
// (leads, opportunities and products too); objects with no place in Cairn are shown, not
// selectable, with why. Case comments are imported with their cases.
import { Badge, Checkbox, Table, Text } from '@mantine/core'
import type { AnalysisReport, MigrationConfig, ObjectAnalysis } from '../../../api/migration.ts'
import { capitalize, count, targetLabel } from '../migrationText.ts'
import { ConfigSection } from './ConfigSection.tsx'
import { followedObject, isSelectable, withObject, type ConfigErrors } from './configForm.ts'

function Note({ o }: { o: ObjectAnalysis }) {
  const follows = followedObject(o.name)
  if (follows) return <Text size="xs" c="dimmed">Imported with {follows === 'Case' ? 'cases' : follows}</Text>
  if (!isSelectable(o)) return <Text size="xs" c="dimmed">{capitalize(o.reasons[0] ?? 'Cairn has no place for this object')}</Text>
  if (o.compatibility === 'manual_review')
    return (
      <Badge size="xs" variant="light" color="orange">
        Review first
      </Badge>
    )
  return null
}

export function ObjectSelection(props: { config: MigrationConfig; report: AnalysisReport; errors: ConfigErrors | null; onChange: (c: MigrationConfig) => void }) {
  const { config, report, errors, onChange } = props
  const selected = new Set(config.objects)
  const chosenRecords = report.objects.filter((o) => selected.has(o.name)).reduce((n, o) => n + o.record_count, 0)
  return (
    <ConfigSection
      title="Objects"
      description={`${config.objects.length} selected, ${count(chosenRecords)} records. Everything the analysis found importable is selected; untick what should stay behind.`}
      error={errors?.objects}
    >
      <Table verticalSpacing={6} aria-label="Objects to import">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} />
            <Table.Th>Object</Table.Th>
            <Table.Th>In Cairn</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.objects.map((o) => {
            const error = errors?.object[o.name]
            return (
              <Table.Tr key={o.name} data-object={o.name}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Import ${o.label}`}
                    checked={selected.has(o.name)}
                    disabled={!isSelectable(o)}
                    onChange={(e) => onChange(withObject(config, report, o.name, e.currentTarget.checked))}
                    error={Boolean(error)}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500} c={isSelectable(o) || followedObject(o.name) ? undefined : 'dimmed'}>
                    {o.label}{' '}
                    {o.name !== o.label && (
                      <Text span size="xs" c="dimmed" ff="monospace">
                        {o.name}
                      </Text>
                    )}
                  </Text>
                  {error && (
                    <Text size="xs" c="red.7">
                      {error}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={o.target ? undefined : 'dimmed'}>
                    {targetLabel(o.target)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{count(o.record_count)}</Text>
                </Table.Td>
                <Table.Td>
                  <Note o={o} />
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </ConfigSection>
  )
}
