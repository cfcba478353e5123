// Every migration of the organization, newest first: the source, status, readiness, records and
// dates; a row opens the migration's wizard.
import { Badge, Group, Progress, Stack, Table, Text } from '@mantine/core'
import { Link } from 'react-router'
import type { MigrationView } from '../../api/migration.ts'
import { formatDay, timeAgo } from '../../components/time.ts'
import { MigrationStatusBadge } from './MigrationStatusBadge.tsx'
import { count, ENVIRONMENT_LABEL, percent, readinessColor } from './migrationText.ts'

function SourceCell({ m }: { m: MigrationView }) {
  return (
    <Stack gap={2}>
      <Text component={Link} to={`/migration/${m.id}`} size="sm" fw={600} c="blue.8" ff="monospace" truncate="end" maw={340}>
        {m.src_instance_url.replace(/^https?:\/\//, '')}
      </Text>
      <Group gap={6}>
        {m.environment && (
          <Badge size="xs" variant="default">
            {ENVIRONMENT_LABEL[m.environment]}
          </Badge>
        )}
        {m.source_org_id && (
          <Text size="xs" c="dimmed" ff="monospace">
            {m.source_org_id}
          </Text>
        )}
      </Group>
    </Stack>
  )
}

/** Before the run: what the analysis counted; during and after: how far the import got. */
function RecordsCell({ m }: { m: MigrationView }) {
  if (m.totals.total > 0) {
    const imported = m.totals.created + m.totals.updated + m.totals.linked
    return (
      <Stack gap={4} w={160}>
        <Text size="sm">
          {count(imported)} of {count(m.totals.total)} imported
        </Text>
        <Progress size="sm" value={percent(m.totals.processed, m.totals.total)} color={m.totals.failed ? 'orange' : 'teal'} aria-hidden />
      </Stack>
    )
  }
  if (m.summary) return <Text size="sm">{count(m.summary.records)} in {count(m.summary.objects)} objects</Text>
  return <Text size="sm" c="dimmed">{m.status === 'analyzing' ? 'Counting…' : '—'}</Text>
}

export function MigrationsTable({ migrations }: { migrations: MigrationView[] }) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Source</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Readiness</Table.Th>
            <Table.Th>Records</Table.Th>
            <Table.Th>Started</Table.Th>
            <Table.Th>Last activity</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {migrations.map((m) => (
            <Table.Tr key={m.id} data-migration-id={m.id}>
              <Table.Td>
                <SourceCell m={m} />
              </Table.Td>
              <Table.Td>
                <MigrationStatusBadge migration={m} />
              </Table.Td>
              <Table.Td>
                {m.summary ? (
                  <Text size="sm" fw={700} c={`${readinessColor(m.summary.readiness)}.8`}>
                    {m.summary.readiness}
                    <Text span size="xs" c="dimmed" fw={400}>
                      {' '}
                      / 100
                    </Text>
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <RecordsCell m={m} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDay(m.created_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {timeAgo(m.updated_at)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
