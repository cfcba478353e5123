// An opportunity's stage as a segmented control; choosing a stage PATCHes `stage`.
import { Group, Paper, SegmentedControl, Text } from '@mantine/core'
import { opportunityKind, OPPORTUNITY_STAGES } from '../../../../src/web-contracts.ts'
import { useUpdateRecord } from '../../api/queries.ts'
import { humanize, type CrmRecord } from '../../kinds.ts'

export function StageControl({ record }: { record: CrmRecord }) {
  const update = useUpdateRecord(opportunityKind, record.id)
  const stage = String(record.stage ?? 'prospecting')
  const color = stage === 'closed_won' ? 'green' : stage === 'closed_lost' ? 'red' : 'teal'
  return (
    <Paper withBorder p="md" radius="md" shadow="xs">
      <Group justify="space-between" mb="xs">
        <Text size="sm" fw={600}>
          Stage
        </Text>
        {update.isPending && (
          <Text size="xs" c="dimmed">
            Saving…
          </Text>
        )}
        {update.isError && (
          <Text size="xs" c="red" role="alert">
            {update.error.message}
          </Text>
        )}
      </Group>
      <SegmentedControl
        fullWidth
        aria-label="Stage"
        color={color}
        value={stage}
        disabled={update.isPending}
        onChange={(value) => value !== stage && update.mutate({ stage: value })}
        data={OPPORTUNITY_STAGES.map((s) => ({ value: s, label: humanize(s) }))}
      />
    </Paper>
  )
}
