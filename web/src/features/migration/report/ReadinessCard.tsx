// The readiness score (0-100) as a ring, with how it was computed: the share of records that map
// automatically or partly, and each penalty with its points.
import { Group, List, Paper, RingProgress, Stack, Text, Title } from '@mantine/core'
import type { AnalysisReport } from '../../../api/migration.ts'
import { readinessColor } from '../migrationText.ts'

function verdict(score: number): string {
  if (score >= 80) return 'Ready to migrate'
  if (score >= 50) return 'Ready after a review'
  return 'Needs work first'
}

export function ReadinessCard({ readiness }: { readiness: AnalysisReport['readiness'] }) {
  const color = readinessColor(readiness.score)
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg" h="100%">
      <Title order={4} mb="sm">
        Readiness
      </Title>
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <RingProgress
          size={148}
          thickness={14}
          roundCaps
          sections={[{ value: readiness.score, color: `${color}.6`, tooltip: `${readiness.score} of 100` }]}
          label={
            <Stack gap={0} align="center" aria-label={`Readiness score ${readiness.score} of 100`} data-testid="readiness-score">
              <Text fz={34} fw={750} lh={1} c={`${color}.8`}>
                {readiness.score}
              </Text>
              <Text size="xs" c="dimmed">
                of 100
              </Text>
            </Stack>
          }
        />
        <Stack gap={6} style={{ flex: 1 }}>
          <Text fw={600} c={`${color}.8`}>
            {verdict(readiness.score)}
          </Text>
          <Text size="sm">{readiness.explanation}</Text>
          <Text size="xs" c="dimmed">
            {Math.round(readiness.auto_share * 100)}% of records map automatically, {Math.round(readiness.partial_share * 100)}% partly.
          </Text>
        </Stack>
      </Group>
      {readiness.penalties.length > 0 && (
        <>
          <Text size="sm" fw={600} mt="md" mb={4}>
            Points taken off
          </Text>
          <List size="sm" spacing={2}>
            {readiness.penalties.map((p) => (
              <List.Item key={p.reason}>
                <Text span fw={600} c="red.7">
                  −{p.points}
                </Text>{' '}
                {p.reason}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Paper>
  )
}
