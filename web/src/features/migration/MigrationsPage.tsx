// Migration (/app/migration): the organization's migrations from a Salesforce-compatible source
// with their status, and "New migration". Administrators only. The source platform's consent sends
// failures back here with ?connect_error=, which belong to the Connect step: forwarded there.
import { Button, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { IconFlask, IconPlus, IconTransfer } from '@tabler/icons-react'
import { Link, Navigate, useLocation } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { useMigrations } from '../../api/migration.ts'
import { useMe } from '../../api/queries.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { SettingsListPanel } from '../../components/SettingsListPanel.tsx'
import { MigrationsTable } from './MigrationsTable.tsx'

export const MIGRATION_INTRO =
  'Migration brings your accounts, contacts, leads, opportunities, products, cases and activities over from Salesforce (or a compatible platform). ' +
  'Cairn first analyzes the source and shows what will come over and what needs attention; nothing is imported until you start the run.'

function HowMigrationWorks() {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={5} mb="xs">
        How a migration works
      </Title>
      <List size="sm" spacing={4} c="dimmed" type="ordered">
        <List.Item>Connect: sign in to the source platform and allow Cairn to read it (read-only).</List.Item>
        <List.Item>Analyze: Cairn reads the objects, fields, automation, owners and API allowance. Nothing is written.</List.Item>
        <List.Item>Report: a readiness score, what maps where, the risks and how long the import should take.</List.Item>
        <List.Item>Configure: choose the objects, adjust field mappings, relationships and duplicate handling.</List.Item>
        <List.Item>Migrate: the import runs in the background; every failed or skipped record is listed with its reason.</List.Item>
      </List>
      <Group gap="xs" mt="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={22} variant="light" color="blue" radius="xl">
          <IconFlask size={14} />
        </ThemeIcon>
        <Text size="sm">
          <strong>Start with a sandbox.</strong> A rehearsal on a sandbox shows the report and the import result, and spends none of production&apos;s
          daily API allowance, before you migrate for real.
        </Text>
      </Group>
    </Paper>
  )
}

export function MigrationsPage() {
  const me = useMe()
  const { search } = useLocation()
  const isAdmin = me.data?.role === 'admin'
  const migrations = useMigrations(isAdmin)
  const organization = me.data?.organization.name || 'this organization'

  if (new URLSearchParams(search).has('connect_error')) return <Navigate to={`/migration/new${search}`} replace />
  if (!isAdmin || (migrations.error instanceof ApiError && migrations.error.code === 'admin_required')) {
    return (
      <>
        <PageHeader title="Migration" />
        <AdminsOnly
          title="Only administrators can migrate data"
          description={`A migration imports records into ${organization} for everyone, so only its administrators can start or follow one.`}
        />
      </>
    )
  }

  const list = migrations.data?.pages.flatMap((p) => p.data) ?? []
  const newButton = (
    <Button component={Link} to="/migration/new" leftSection={<IconPlus size={16} />}>
      New migration
    </Button>
  )
  return (
    <>
      <PageHeader title="Migration" actions={list.length > 0 ? newButton : null} />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        {MIGRATION_INTRO}
      </Text>
      <Stack gap="lg">
        <SettingsListPanel
          query={migrations}
          noun="migrations"
          isEmpty={list.length === 0}
          empty={{
            icon: <IconTransfer size={26} />,
            title: 'No migrations yet',
            description: 'Connect your Salesforce org to see a readiness report before anything is imported. Try a sandbox first.',
            action: newButton,
          }}
        >
          <MigrationsTable migrations={list} />
          {migrations.hasNextPage && (
            <Group justify="center" p="sm">
              <Button variant="subtle" onClick={() => void migrations.fetchNextPage()} loading={migrations.isFetchingNextPage}>
                Load more
              </Button>
            </Group>
          )}
        </SettingsListPanel>
        <HowMigrationWorks />
      </Stack>
    </>
  )
}
