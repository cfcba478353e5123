// The overview's welcome while an organization has no records yet: the three ways to fill Cairn
// (migrate from Salesforce, import a CSV file, add a record by hand). It disappears with the first
// record; the counts are the overview's own queries, so it costs no request of its own.
import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { IconCloudDownload, IconFileSpreadsheet, IconPlus, type IconProps } from '@tabler/icons-react'
import type { ComponentType } from 'react'
import { Link } from 'react-router'
import { appKinds } from '../../kinds.ts'
import { useRecordCounts } from '../records/useRecordCount.ts'

interface Way {
  icon: ComponentType<IconProps>
  title: string
  text: string
  action: string
  to: string
  primary?: boolean
}

const WAYS: Way[] = [
  {
    icon: IconCloudDownload,
    title: 'Migrate from Salesforce',
    text: 'Connect your org, review what Cairn found, and bring accounts, contacts, leads, opportunities, products and cases across in one run.',
    action: 'Start a migration',
    to: '/migration/new',
    primary: true,
  },
  {
    icon: IconFileSpreadsheet,
    title: 'Import a CSV file',
    text: 'Have a spreadsheet export? Open a list and choose Import to map its columns onto Cairn fields.',
    action: 'Import contacts',
    to: '/contacts?import=1',
  },
  {
    icon: IconPlus,
    title: 'Start from scratch',
    text: 'Add your first account by hand and build from there: contacts, opportunities and cases hang off it.',
    action: 'New account',
    to: '/accounts/new',
  },
]

/** True once every kind's count has loaded as zero. */
export function useNoRecordsYet(): boolean {
  const counts = useRecordCounts(appKinds.map(({ kind }) => kind))
  return counts.every((q) => q.isSuccess && q.data.count === 0)
}

export function FirstRunPanel() {
  if (!useNoRecordsYet()) return null
  return (
    <Card withBorder radius="lg" padding="xl" mb="lg" shadow="xs" aria-labelledby="first-run-title" component="section">
      <Stack gap={4} mb="lg">
        <Title order={3} id="first-run-title">
          Welcome to Cairn
        </Title>
        <Text c="dimmed">Your organization has no records yet. Choose how to bring your customers in; you can combine all three.</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {WAYS.map((way) => (
          <Card key={way.title} withBorder radius="md" padding="lg" bg={way.primary ? 'var(--mantine-color-teal-0)' : undefined}>
            <Stack gap="sm" h="100%" justify="space-between">
              <div>
                <Group gap="sm" mb="xs" wrap="nowrap">
                  <ThemeIcon variant={way.primary ? 'filled' : 'light'} size={36} radius="md">
                    <way.icon size={20} stroke={1.6} />
                  </ThemeIcon>
                  <Text fw={600}>{way.title}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {way.text}
                </Text>
              </div>
              <Button component={Link} to={way.to} variant={way.primary ? 'filled' : 'light'} fullWidth>
                {way.action}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Card>
  )
}
