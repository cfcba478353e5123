// An import while it runs (a live bar of rows read out of the file's rows) and once it has ended:
// what it created, updated and could not import, with the issues to download.
import { Alert, Badge, Button, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconCircleCheck, IconDownload } from '@tabler/icons-react'
import { isRunning, issuesCsvUrl, type Import } from '../../api/imports.ts'
import { Figure } from '../../components/Figure.tsx'

const STATUS: Record<Import['status'], { label: string; color: string }> = {
  queued: { label: 'Waiting to start', color: 'gray' },
  running: { label: 'Importing', color: 'blue' },
  completed: { label: 'Completed', color: 'teal' },
  completed_with_errors: { label: 'Completed with issues', color: 'yellow' },
  failed: { label: 'Failed', color: 'red' },
}

const count = (n: number) => n.toLocaleString('en-US')

export function ImportProgress({ imp }: { imp: Import }) {
  const running = isRunning(imp)
  const status = STATUS[imp.status]
  const percent = imp.total_rows > 0 ? Math.min(100, (imp.processed / imp.total_rows) * 100) : running ? 0 : 100
  return (
    <Stack gap="md" data-import-status={imp.status}>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {imp.file_name ?? 'The file'}
        </Text>
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
      </Group>
      <div>
        <Progress value={percent} size="lg" radius="xl" animated={running} striped={running} color={imp.status === 'failed' ? 'red' : status.color} aria-label="Import progress" />
        <Text size="xs" c="dimmed" mt={6}>
          {count(imp.processed)} of {count(imp.total_rows)} rows read
        </Text>
      </div>
      <SimpleGrid cols={3}>
        <Figure label="Created" value={imp.created} color="teal.8" />
        <Figure label="Updated" value={imp.updated} color="blue.8" />
        <Figure label="Not imported" value={imp.failed} color="red.7" />
      </SimpleGrid>
      {imp.status === 'completed' && (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />}>
          Every row was imported.
        </Alert>
      )}
      {imp.status === 'failed' && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The import stopped">
          {imp.status_reason}
        </Alert>
      )}
      {imp.issue_count > 0 && !running && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={`${count(imp.issue_count)} ${imp.issue_count === 1 ? 'issue' : 'issues'} in ${count(imp.failed)} ${imp.failed === 1 ? 'row' : 'rows'}`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Those rows were left out; the others were imported. The list names each row, column and what is wrong, so you can fix the file and import those rows again.</Text>
            <Button component="a" href={issuesCsvUrl(imp.id)} download variant="light" color="yellow" size="xs" leftSection={<IconDownload size={14} />}>
              Download issues (CSV)
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  )
}
