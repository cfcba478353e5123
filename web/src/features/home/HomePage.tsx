// The overview at /app: how many records of each kind (exact counts), and the open pipeline by stage.
import { Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon, UnstyledButton } from '@mantine/core'
import { Link } from 'react-router'
import { useMe } from '../../api/queries.ts'
import { PageHeader } from '../../components/PageHeader.tsx'
import { appKinds } from '../../kinds.ts'
import { formatCount, useRecordCounts } from '../records/useRecordCount.ts'
import { PipelineChart } from './PipelineChart.tsx'
import { FirstRunPanel } from './FirstRunPanel.tsx'

export function HomePage() {
  const me = useMe()
  const counts = useRecordCounts(appKinds.map(({ kind }) => kind))
  return (
    <>
      <PageHeader eyebrow={me.data?.organization.name} title="Overview" />
      <FirstRunPanel />
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing="md" mb="lg">
        {appKinds.map(({ kind, icon: Icon }, i) => {
          const q = counts[i]!
          return (
            <UnstyledButton key={kind.path} component={Link} to={`/${kind.path}`} aria-label={kind.labelPlural}>
              <Card withBorder radius="md" shadow="xs" padding="md">
                <Group justify="space-between" align="flex-start">
                  <div>
                    <Text size="sm" c="dimmed" fw={500}>
                      {kind.labelPlural}
                    </Text>
                    {q.isPending ? (
                      <Skeleton height={28} width={48} mt={6} />
                    ) : (
                      <Text fz={28} fw={700} lh={1.3}>
                        {q.isError ? '—' : formatCount(q.data.count)}
                      </Text>
                    )}
                  </div>
                  <ThemeIcon variant="light" size={36} radius="md">
                    <Icon size={20} stroke={1.6} />
                  </ThemeIcon>
                </Group>
              </Card>
            </UnstyledButton>
          )
        })}
      </SimpleGrid>
      <PipelineChart />
    </>
  )
}
