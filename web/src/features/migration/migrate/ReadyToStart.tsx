// Before the run: what will be imported, in which order and how, and the button that starts it.
// The import runs in the background; the page follows it live.
import { Alert, Badge, Button, Group, List, Paper, Stack, Table, Text, Title } from '@mantine/core'
import { IconPlayerPlay, IconSettings } from '@tabler/icons-react'
import { IMPORT_ORDER } from '../../../../../src/web-contracts.ts'
import { useRunMigration, type AnalysisReport, type MigrationConfig, type MigrationView } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { initialConfig } from '../configure/configForm.ts'
import { count, duration, targetLabel } from '../migrationText.ts'

function ImportPlan({ config, report }: { config: MigrationConfig; report: AnalysisReport }) {
  const selected = new Set(config.objects)
  const phased = config.phasing === 'accounts_contacts_first'
  const steps = IMPORT_ORDER.filter((s) => selected.has(s.object) || (s.follows !== undefined && selected.has(s.follows)))
  const analysis = new Map(report.objects.map((o) => [o.name, o]))
  const records = steps.reduce((n, s) => n + (analysis.get(s.object)?.record_count ?? 0), 0)
  return (
    <>
      <Table verticalSpacing={6} fz="sm" withTableBorder aria-label="Import plan">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>#</Table.Th>
            <Table.Th>Object</Table.Th>
            <Table.Th>Into</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            {phased && <Table.Th>Phase</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {steps.map((s, i) => (
            <Table.Tr key={s.object}>
              <Table.Td c="dimmed">{i + 1}</Table.Td>
              <Table.Td fw={500}>{analysis.get(s.object)?.label ?? s.object}</Table.Td>
              <Table.Td>{targetLabel(s.target)}</Table.Td>
              <Table.Td ta="right">{count(analysis.get(s.object)?.record_count ?? 0)}</Table.Td>
              {phased && (
                <Table.Td>
                  <Badge size="sm" variant="light" color={s.phase === 1 ? 'teal' : 'gray'}>
                    Phase {s.phase}
                  </Badge>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        {count(records)} records; at the measured {count(report.timeline.assumed_records_per_second)} records a second, about{' '}
        {duration(records / Math.max(1, report.timeline.assumed_records_per_second))} of importing plus reading from the source.
      </Text>
    </>
  )
}

const MISSING_PARENT: Record<MigrationConfig['relationships']['missing_parent'], string> = {
  import_without_link: 'imported without the link',
  skip_record: 'skipped',
  fail_record: 'failed',
}
const ON_MATCH: Record<MigrationConfig['dedup']['accounts']['on_match'], string> = { link: 'linked', update: 'updated', create: 'created anyway' }

/** The configuration's choices besides the objects, in one short list. */
function SettingsSummary({ config }: { config: MigrationConfig }) {
  const dedup = (['accounts', 'contacts', 'leads'] as const)
    .filter((rule) => config.dedup[rule].match_by !== 'none')
    .map((rule) => `${rule} by ${config.dedup[rule].match_by} (${ON_MATCH[config.dedup[rule].on_match]})`)
  const overrides = Object.values(config.field_overrides).reduce((n, o) => n + Object.keys(o).length, 0)
  return (
    <List size="sm" spacing={2} c="dimmed">
      <List.Item>Records whose parent is missing are {MISSING_PARENT[config.relationships.missing_parent]}.</List.Item>
      <List.Item>{config.relationships.owners === 'match_by_email' ? 'Owners are matched to members by email.' : 'Owners are left empty.'}</List.Item>
      <List.Item>{dedup.length ? `Duplicates: ${dedup.join('; ')}.` : 'No duplicate matching: every record is created.'}</List.Item>
      <List.Item>
        {overrides ? `${overrides} field mapping${overrides > 1 ? 's' : ''} changed from the report.` : 'Field mapping as in the report.'}{' '}
        {config.emit_webhooks ? 'Webhook events are sent for imported records.' : 'No webhook events for imported records.'}
      </List.Item>
      {config.create_custom_fields && <List.Item>Unmapped source fields become custom fields of their kind.</List.Item>}
    </List>
  )
}

export function ReadyToStart({ migration, report, onConfigure }: { migration: MigrationView; report: AnalysisReport | undefined; onConfigure: () => void }) {
  const run = useRunMigration(migration.id)
  const config = migration.config ?? (report ? initialConfig(migration, report) : null)
  const phased = config?.phasing === 'accounts_contacts_first'
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Stack gap="md">
        <div>
          <Title order={4}>Ready to migrate</Title>
          <Text size="sm" c="dimmed">
            The import runs in the background: you can leave this page and come back. Records keep their source ID, so nothing is imported twice.
          </Text>
        </div>
        {!migration.config && (
          <Alert color="blue" variant="light">
            Nothing was configured, so the analysis&apos; proposal is used: every object it found importable, duplicates by email linked, owners matched by email.
          </Alert>
        )}
        {config && report && <ImportPlan config={config} report={report} />}
        {config && <SettingsSummary config={config} />}
        {run.isError && <ErrorState title="Could not start the migration" error={run.error} />}
        <Group>
          <Button size="md" leftSection={<IconPlayerPlay size={18} />} loading={run.isPending} onClick={() => run.mutate()}>
            {phased ? 'Start migration (phase 1)' : 'Start migration'}
          </Button>
          <Button variant="default" leftSection={<IconSettings size={16} />} onClick={onConfigure}>
            Change configuration
          </Button>
        </Group>
      </Stack>
    </Paper>
  )
}
