// How the run goes: all at once or accounts and contacts first (a second run imports the rest), and
// whether imported records send webhook events, and whether unmapped source fields become custom fields.
import { Radio, SimpleGrid, Stack, Switch } from '@mantine/core'
import type { MigrationConfig } from '../../../api/migration.ts'
import { ConfigSection } from './ConfigSection.tsx'
import type { ConfigErrors } from './configForm.ts'

export function RunOptions(props: { config: MigrationConfig; errors: ConfigErrors | null; onChange: (c: MigrationConfig) => void }) {
  const { config, errors, onChange } = props
  return (
    <ConfigSection title="Run" description="Import everything in one run, or accounts and contacts first so people can check them before the rest follows.">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <Radio.Group
          label="Phasing"
          value={config.phasing}
          onChange={(v) => onChange({ ...config, phasing: v as MigrationConfig['phasing'] })}
          error={errors?.setting.phasing}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="all" label="Everything in one run" description="Objects are imported in dependency order: accounts, contacts, then the rest." />
            <Radio
              value="accounts_contacts_first"
              label="Accounts and contacts first"
              description="Phase 1 imports accounts and contacts and stops; you start phase 2 for the rest when ready."
            />
          </Stack>
        </Radio.Group>
        <Switch
          label="Send webhook events for imported records"
          description="Off by default: a migration creates thousands of records at once, and receivers would get one event for each."
          checked={config.emit_webhooks}
          onChange={(e) => onChange({ ...config, emit_webhooks: e.currentTarget.checked })}
          error={errors?.setting.emit_webhooks}
        />
        <Switch
          label="Create custom fields for unmapped source fields"
          description="Source fields with no matching field here become custom fields of their kind (typed from the source: text, number, date, yes/no, picklist), shown in forms and lists. Off: their values are kept as extra data under the source names."
          checked={config.create_custom_fields ?? false}
          onChange={(e) => onChange({ ...config, create_custom_fields: e.currentTarget.checked })}
          error={errors?.setting.create_custom_fields}
        />
      </SimpleGrid>
    </ConfigSection>
  )
}
