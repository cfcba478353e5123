// Deduplication against what is already in Cairn: accounts by normalized domain or name, contacts
// and leads by normalized email; on a match, link to the existing record, update it, or create
// anyway.
import { Group, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core'
import type { AnalysisReport, MigrationConfig } from '../../../api/migration.ts'
import { ConfigSection } from './ConfigSection.tsx'
import type { ConfigErrors } from './configForm.ts'

type Dedup = MigrationConfig['dedup']
type Rule = keyof Dedup

const RULES: Array<{ rule: Rule; label: string; object: string; matchBy: Array<{ value: string; label: string }> }> = [
  {
    rule: 'accounts',
    label: 'Accounts',
    object: 'Account',
    matchBy: [
      { value: 'none', label: 'Off' },
      { value: 'domain', label: 'Domain' },
      { value: 'name', label: 'Name' },
    ],
  },
  { rule: 'contacts', label: 'Contacts', object: 'Contact', matchBy: [{ value: 'none', label: 'Off' }, { value: 'email', label: 'Email' }] },
  { rule: 'leads', label: 'Leads', object: 'Lead', matchBy: [{ value: 'none', label: 'Off' }, { value: 'email', label: 'Email' }] },
]

const ON_MATCH = [
  { value: 'link', label: 'Link to the existing record' },
  { value: 'update', label: 'Update the existing record' },
  { value: 'create', label: 'Create a new one anyway' },
]

export function DedupRules(props: { config: MigrationConfig; report: AnalysisReport; errors: ConfigErrors | null; onChange: (c: MigrationConfig) => void }) {
  const { config, report, errors } = props
  const set = (rule: Rule, patch: Partial<Dedup[Rule]>) => props.onChange({ ...config, dedup: { ...config.dedup, [rule]: { ...config.dedup[rule], ...patch } } })
  return (
    <ConfigSection
      title="Duplicates"
      description="Match incoming records against what is already in Cairn (and earlier records of this import). Domains, names and emails are compared normalized: case, spaces, “www.” and trailing dots do not count."
      error={errors?.setting.dedup}
    >
      <Table verticalSpacing="sm" aria-label="Deduplication rules">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Records</Table.Th>
            <Table.Th>Match by</Table.Th>
            <Table.Th>On a match</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RULES.map(({ rule, label, object, matchBy }) => {
            const value = config.dedup[rule]
            const found = report.duplicates.find((d) => d.object === object)
            const error = errors?.setting[`dedup.${rule}`]
            return (
              <Table.Tr key={rule} data-rule={rule}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      {label}
                    </Text>
                    {found && found.duplicate_groups > 0 && (
                      <Text size="xs" c="orange.8">
                        {found.duplicate_groups} repeated emails in the source sample
                      </Text>
                    )}
                    {!config.objects.includes(object) && (
                      <Text size="xs" c="dimmed">
                        {object} is not selected
                      </Text>
                    )}
                    {error && (
                      <Text size="xs" c="red.7">
                        {error}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <SegmentedControl
                    size="xs"
                    aria-label={`Match ${label.toLowerCase()} by`}
                    data={matchBy}
                    value={value.match_by}
                    onChange={(v) => set(rule, { match_by: v as never })}
                  />
                </Table.Td>
                <Table.Td>
                  <Group>
                    <Select
                      size="xs"
                      w={240}
                      aria-label={`When ${label.toLowerCase()} match`}
                      data={ON_MATCH}
                      value={value.on_match}
                      onChange={(v) => v && set(rule, { on_match: v as Dedup[Rule]['on_match'] })}
                      allowDeselect={false}
                      disabled={value.match_by === 'none'}
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </ConfigSection>
  )
}
