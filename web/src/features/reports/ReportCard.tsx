// One chart of the Reports page: its title and what it counts, then the chart, a skeleton while it
// loads, the error with a retry, or a sentence when the period holds nothing.
import type { ReactNode } from 'react'
import { Paper, Skeleton, Text, Title } from '@mantine/core'
import type { UseQueryResult } from '@tanstack/react-query'
import { ErrorState } from '../../components/ErrorState.tsx'

export function ReportCard<T>({ title, caption, result, empty, children }: { title: string; caption: ReactNode; result: UseQueryResult<T, Error>; empty: (data: T) => string | null; children: (data: T) => ReactNode }) {
  const nothing = result.data !== undefined ? empty(result.data) : null
  return (
    <Paper withBorder radius="md" shadow="xs" p="lg">
      <Title order={4}>{title}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {caption}
      </Text>
      {result.isPending ? (
        <Skeleton height={240} />
      ) : result.isError ? (
        <ErrorState title={`Could not load ${title.toLowerCase()}`} error={result.error} onRetry={() => void result.refetch()} />
      ) : nothing ? (
        <Text size="sm" c="dimmed" py="xl" ta="center">
          {nothing}
        </Text>
      ) : (
        children(result.data as T)
      )}
    </Paper>
  )
}
