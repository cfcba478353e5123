// Under a list: which records are shown of how many ("51–100 of 1,234"), and Previous / Next.
import { Button, Group, Text } from '@mantine/core'
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react'
import { formatCount } from '../records/useRecordCount.ts'

interface Props {
  /** Page index (0: first), or null when not known (a shared link opened mid-list). */
  pageIndex: number | null
  pageSize: number
  shown: number
  total: number | undefined
  hasPrevious: boolean
  hasNext: boolean
  loading: boolean
  onPrevious: () => void
  onNext: () => void
}

export function ListPager({ pageIndex, pageSize, shown, total, hasPrevious, hasNext, loading, onPrevious, onNext }: Props) {
  const of = total === undefined ? '' : ` of ${formatCount(total)}`
  const range = pageIndex === null ? `${formatCount(shown)} shown${of}` : `${formatCount(pageIndex * pageSize + 1)}–${formatCount(pageIndex * pageSize + shown)}${of}`
  if (!hasPrevious && !hasNext) return null
  return (
    <Group justify="space-between" mt="md" mb="xl" aria-label="Pages" role="navigation">
      <Text size="sm" c="dimmed" aria-live="polite">
        {range}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="sm" leftSection={<IconChevronLeft size={16} />} disabled={!hasPrevious || loading} onClick={onPrevious}>
          Previous
        </Button>
        <Button variant="default" size="sm" rightSection={<IconChevronRight size={16} />} disabled={!hasNext} loading={loading && hasNext} onClick={onNext}>
          Next
        </Button>
      </Group>
    </Group>
  )
}
