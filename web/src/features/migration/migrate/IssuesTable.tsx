// Every record that failed or was skipped, and every warning, with its reason: filter by kind and
// object, page with "Load more", open a row for the source data as read. The same list downloads
// as CSV.
import { Accordion, Badge, Button, Code, Group, Loader, Paper, ScrollArea, Select, Stack, Text, Title } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { useState } from 'react'
import { issuesCsvUrl, useMigrationIssues, type IssueFilter, type IssueKind, type MigrationIssue, type MigrationView } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { formatDateTime } from '../../../kinds.ts'
import { count } from '../migrationText.ts'

const KIND: Record<IssueKind, { label: string; color: string }> = {
  failed: { label: 'Failed', color: 'red' },
  skipped: { label: 'Skipped', color: 'gray' },
  warning: { label: 'Warning', color: 'yellow' },
}

function IssueRow({ issue, label }: { issue: MigrationIssue; label: string }) {
  const kind = KIND[issue.kind]
  return (
    <Accordion.Item value={issue.id} data-issue-id={issue.id}>
      <Accordion.Control aria-label={`${kind.label} ${label} ${issue.src_id ?? ''}: ${issue.reason}`}>
        <Group gap="sm" wrap="nowrap">
          <Badge color={kind.color} variant="light" miw={84}>
            {kind.label}
          </Badge>
          <Text size="sm" fw={600} w={120} truncate="end">
            {label}
          </Text>
          <Text size="sm" ff="monospace" c="dimmed" w={170} truncate="end">
            {issue.src_id ?? '—'}
          </Text>
          <Text size="sm" truncate="end" style={{ flex: 1 }}>
            {issue.reason}
          </Text>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="xs">
          <Group gap="lg">
            <Text size="sm">
              <Text span c="dimmed">
                Reason code
              </Text>{' '}
              <Code>{issue.code}</Code>
            </Text>
            {issue.field && (
              <Text size="sm">
                <Text span c="dimmed">
                  Field
                </Text>{' '}
                <Code>{issue.field}</Code>
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {formatDateTime(issue.created_at)}
            </Text>
          </Group>
          <Text size="sm">{issue.reason}</Text>
          {issue.source_data ? (
            <>
              <Text size="sm" fw={500}>
                Source data
              </Text>
              <ScrollArea.Autosize mah={300}>
                <Code block>{JSON.stringify(issue.source_data, null, 2)}</Code>
              </ScrollArea.Autosize>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              The record was imported; its data is in Cairn.
            </Text>
          )}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  )
}

export function IssuesTable({ migration, labels }: { migration: MigrationView; labels: Map<string, string> }) {
  const [filter, setFilter] = useState<IssueFilter>({ kind: null, object: null })
  const issues = useMigrationIssues(migration.id, filter)
  const list = issues.data?.pages.flatMap((p) => p.data) ?? []
  const t = migration.totals
  const total = t.failed + t.skipped + t.warnings
  const objects = migration.progress.map((p) => ({ value: p.object, label: labels.get(p.object) ?? p.object }))
  return (
    <Paper withBorder radius="md" shadow="xs">
      <Group justify="space-between" p="md" pb="xs" align="flex-end">
        <div>
          <Title order={4}>Records to look at</Title>
          <Text size="sm" c="dimmed">
            {total === 0
              ? 'Every record came over as it was.'
              : `${count(t.failed)} failed, ${count(t.skipped)} skipped, ${count(t.warnings)} imported with a warning. Nothing is left out silently.`}
          </Text>
        </div>
        <Group gap="sm" align="flex-end">
          <Select
            size="xs"
            w={150}
            label="Kind"
            data={[{ value: '', label: 'All kinds' }, ...Object.entries(KIND).map(([value, k]) => ({ value, label: k.label }))]}
            value={filter.kind ?? ''}
            onChange={(v) => setFilter({ ...filter, kind: (v || null) as IssueKind | null })}
            allowDeselect={false}
          />
          <Select
            size="xs"
            w={170}
            label="Object"
            data={[{ value: '', label: 'All objects' }, ...objects]}
            value={filter.object ?? ''}
            onChange={(v) => setFilter({ ...filter, object: v || null })}
            allowDeselect={false}
          />
          <Button component="a" href={issuesCsvUrl(migration.id, filter.kind)} download size="xs" variant="default" leftSection={<IconDownload size={14} />} disabled={total === 0}>
            Download issues (CSV)
          </Button>
          {issues.isFetching && !issues.isFetchingNextPage && <Loader size="xs" aria-label="Refreshing" />}
        </Group>
      </Group>
      {issues.isPending ? (
        <Text p="md" size="sm" c="dimmed">
          Loading…
        </Text>
      ) : issues.isError ? (
        <div style={{ padding: 16 }}>
          <ErrorState title="Could not load the records to look at" error={issues.error} onRetry={() => void issues.refetch()} />
        </div>
      ) : list.length === 0 ? (
        <Text p="md" pt={0} size="sm" c="dimmed">
          {filter.kind || filter.object ? 'Nothing matches these filters.' : 'No failed, skipped or warned records.'}
        </Text>
      ) : (
        <>
          <Accordion chevronPosition="left" keepMounted={false} aria-label="Issues">
            {list.map((i) => (
              <IssueRow key={i.id} issue={i} label={labels.get(i.object) ?? i.object} />
            ))}
          </Accordion>
          {issues.hasNextPage && (
            <Group justify="center" p="sm">
              <Button variant="subtle" onClick={() => void issues.fetchNextPage()} loading={issues.isFetchingNextPage}>
                Load more
              </Button>
            </Group>
          )}
        </>
      )}
    </Paper>
  )
}
