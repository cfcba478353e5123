// Step 1 of an existing migration, for review: which org it reads and since when.
import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconCircleCheck } from '@tabler/icons-react'
import type { MigrationView } from '../../../api/migration.ts'
import { formatDateTime } from '../../../kinds.ts'
import { ENVIRONMENT_LABEL } from '../migrationText.ts'

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" ff={mono ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </Stack>
  )
}

export function ConnectedSummary({ migration: m }: { migration: MigrationView }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Group gap="xs" mb="md">
        <IconCircleCheck size={20} color="var(--mantine-color-teal-6)" />
        <Text fw={600}>Connected to the source org</Text>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        <Fact label="Instance" value={m.src_instance_url} mono />
        <Fact label="Environment" value={m.environment ? ENVIRONMENT_LABEL[m.environment] : 'Not stated'} />
        <Fact label="Org ID" value={m.source_org_id ?? 'Not known yet'} mono={Boolean(m.source_org_id)} />
        <Fact label="Connected" value={formatDateTime(m.created_at)} />
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="md">
        Cairn only reads the source. Its access is stored encrypted and deleted when the migration ends; to read another org, start a new migration.
      </Text>
    </Paper>
  )
}
