// Which source org to connect: a sandbox (recommended first, with why) or production.
import { Badge, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconBuildingFactory2, IconFlask } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import type { SourceEnvironment } from '../../../api/migration.ts'

function Choice(props: { value: SourceEnvironment; title: string; icon: ReactNode; badge?: ReactNode; children: ReactNode }) {
  return (
    <Radio.Card value={props.value} radius="md" p="md" aria-label={props.title}>
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Radio.Indicator mt={2} />
        <Stack gap={4}>
          <Group gap="xs">
            {props.icon}
            <Text fw={600}>{props.title}</Text>
            {props.badge}
          </Group>
          <Text size="sm" c="dimmed">
            {props.children}
          </Text>
        </Stack>
      </Group>
    </Radio.Card>
  )
}

export function EnvironmentChoice({ value, onChange }: { value: SourceEnvironment; onChange: (value: SourceEnvironment) => void }) {
  return (
    <Radio.Group value={value} onChange={(v) => onChange(v as SourceEnvironment)} label="Source org" description="Which Salesforce org to read from. Cairn only reads it; nothing in the source is changed.">
      <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
        <Choice
          value="sandbox"
          title="Sandbox"
          icon={<IconFlask size={18} color="var(--mantine-color-blue-6)" />}
          badge={
            <Badge size="sm" color="blue" variant="light">
              Recommended first
            </Badge>
          }
        >
          A rehearsal on a copy of your org: you see the readiness report and a complete import result, and spend none of production&apos;s daily
          API allowance, before the real migration.
        </Choice>
        <Choice value="production" title="Production" icon={<IconBuildingFactory2 size={18} color="var(--mantine-color-gray-6)" />}>
          Your live org. Best once a sandbox rehearsal went well; the import reads through the same daily API allowance your other integrations use.
        </Choice>
      </SimpleGrid>
    </Radio.Group>
  )
}
