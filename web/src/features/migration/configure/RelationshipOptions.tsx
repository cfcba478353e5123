// How links between records are handled: a record whose parent was not imported, and record owners.
import { Radio, SimpleGrid, Stack } from '@mantine/core'
import type { AnalysisReport, MigrationConfig } from '../../../api/migration.ts'
import { ConfigSection } from './ConfigSection.tsx'
import type { ConfigErrors } from './configForm.ts'

type Relationships = MigrationConfig['relationships']

const MISSING_PARENT: Array<{ value: Relationships['missing_parent']; label: string; description: string }> = [
  { value: 'import_without_link', label: 'Import without the link', description: 'The record comes over; the missing link is listed as a warning.' },
  { value: 'skip_record', label: 'Skip the record', description: 'The record is not imported and is listed as skipped with its source data.' },
  { value: 'fail_record', label: 'Fail the record', description: 'The record is listed as failed, so the migration ends “with errors”.' },
]

export function RelationshipOptions(props: { config: MigrationConfig; report: AnalysisReport; errors: ConfigErrors | null; onChange: (c: MigrationConfig) => void }) {
  const { config, report, errors } = props
  const set = (patch: Partial<Relationships>) => props.onChange({ ...config, relationships: { ...config.relationships, ...patch } })
  const owners = report.owners
  return (
    <ConfigSection
      title="Relationships"
      description="A contact whose account is not imported, a comment whose case is missing: what should happen to such records, and who should own what is imported."
      error={errors?.setting.relationships}
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Radio.Group
          label="When a record's parent is missing"
          value={config.relationships.missing_parent}
          onChange={(v) => set({ missing_parent: v as Relationships['missing_parent'] })}
          error={errors?.setting['relationships.missing_parent']}
        >
          <Stack gap="xs" mt="xs">
            {MISSING_PARENT.map((o) => (
              <Radio key={o.value} value={o.value} label={o.label} description={o.description} />
            ))}
          </Stack>
        </Radio.Group>
        <Radio.Group
          label="Record owners"
          description={`${owners.matched} of ${owners.source_users} source users have a member with the same email in this organization.`}
          value={config.relationships.owners}
          onChange={(v) => set({ owners: v as Relationships['owners'] })}
          error={errors?.setting['relationships.owners']}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="match_by_email" label="Match owners to members by email" description="Records of unmatched users are imported without an owner." />
            <Radio value="leave_empty" label="Leave the owner empty" description="Assign owners in Cairn after the import." />
          </Stack>
        </Radio.Group>
      </SimpleGrid>
    </ConfigSection>
  )
}
