// Step 2: the analysis runs in the background. While it does, what it reads; when it failed (or
// was stopped), why, and a way to start again; once done, its headline figures.
import { Alert, Button, Group, List, Loader, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { IconAlertTriangle, IconBolt, IconCircleCheck, IconDatabase, IconGauge, IconListDetails, IconUsers } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { MigrationView } from '../../../api/migration.ts'
import { formatDateTime } from '../../../kinds.ts'
import { CancelMigrationButton } from '../CancelMigrationButton.tsx'
import { count, plural } from '../migrationText.ts'

const READS: Array<{ icon: ReactNode; title: string; detail: string }> = [
  { icon: <IconDatabase size={16} />, title: 'Objects and record counts', detail: 'Standard and custom objects worth migrating; system objects are left out.' },
  { icon: <IconListDetails size={16} />, title: 'Fields', detail: 'Each field’s type, and where it lands in Cairn: exact, with a loss, or not at all.' },
  { icon: <IconBolt size={16} />, title: 'Automation', detail: 'Triggers, flows and workflow rules that will not come along.' },
  { icon: <IconUsers size={16} />, title: 'Owners', detail: 'Source users matched to members of this organization by email.' },
  { icon: <IconGauge size={16} />, title: 'API allowance', detail: 'How much of the daily allowance the import will need.' },
]

function Analyzing({ migration }: { migration: MigrationView }) {
  return (
    <Paper withBorder radius="md" p="lg" aria-busy="true">
      <Group justify="space-between" align="flex-start" mb="md">
        <Group gap="sm">
          <Loader size="sm" />
          <div>
            <Title order={4}>Analyzing your org</Title>
            <Text size="sm" c="dimmed">
              Started {formatDateTime(migration.created_at)}. This usually takes under a minute; you can leave this page and come back.
            </Text>
          </div>
        </Group>
        <CancelMigrationButton migration={migration} />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {READS.map((r) => (
          <Group key={r.title} gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size={30} radius="md">
              {r.icon}
            </ThemeIcon>
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {r.title}
              </Text>
              <Text size="xs" c="dimmed">
                {r.detail}
              </Text>
            </Stack>
          </Group>
        ))}
      </SimpleGrid>
    </Paper>
  )
}

function Ended({ migration }: { migration: MigrationView }) {
  const failed = migration.status === 'failed'
  return (
    <Alert color={failed ? 'red' : 'gray'} variant="light" icon={<IconAlertTriangle size={18} />} title={failed ? 'The analysis failed' : 'The analysis was stopped'} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{migration.status_reason ?? (failed ? 'The source could not be read.' : 'It was stopped before it finished.')}</Text>
        <Button component={Link} to="/migration/new" size="xs">
          Start again
        </Button>
      </Stack>
    </Alert>
  )
}

function Done({ migration, onShowReport }: { migration: MigrationView; onShowReport: () => void }) {
  const s = migration.summary
  return (
    <Paper withBorder radius="md" p="lg">
      <Group gap="xs" mb="xs">
        <IconCircleCheck size={20} color="var(--mantine-color-teal-6)" />
        <Text fw={600}>Analysis finished {migration.analyzed_at && formatDateTime(migration.analyzed_at)}</Text>
      </Group>
      {s && (
        <List size="sm" spacing={2} mb="md">
          <List.Item>
            {plural(s.objects, 'object')} with {count(s.records)} records
          </List.Item>
          <List.Item>
            Readiness {s.readiness} of 100; {plural(s.risks.high, 'high risk')}, {s.risks.medium} medium, {s.risks.low} low
          </List.Item>
        </List>
      )}
      <Button variant="light" onClick={onShowReport}>
        View the report
      </Button>
    </Paper>
  )
}

export function AnalyzeStep({ migration, onShowReport }: { migration: MigrationView; onShowReport: () => void }) {
  if (migration.status === 'analyzing') return <Analyzing migration={migration} />
  if (!migration.analyzed_at) return <Ended migration={migration} />
  return <Done migration={migration} onShowReport={onShowReport} />
}
