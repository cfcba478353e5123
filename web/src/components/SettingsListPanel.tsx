// The framed list of a settings page in its four states: loading, failed (with Retry), empty (an
// explanation and the page's main action) and the list itself.
import { EmptyState, Paper, Skeleton, Stack } from '@mantine/core'
import type { ReactNode } from 'react'
import { ErrorState } from './ErrorState.tsx'

interface QueryState {
  isPending: boolean
  isError: boolean
  error: unknown
  refetch: () => unknown
}

export function SettingsListPanel(props: {
  query: QueryState
  noun: string
  isEmpty: boolean
  empty: { icon: ReactNode; title: string; description: string; action: ReactNode }
  children: ReactNode
}) {
  const { query, noun, isEmpty, empty } = props
  return (
    <Paper withBorder radius="md" shadow="xs">
      {query.isPending ? (
        <Stack p="md" gap="sm" aria-busy="true" aria-label={`Loading ${noun}`}>
          <Skeleton height={14} width="40%" />
          <Skeleton height={14} />
          <Skeleton height={14} />
        </Stack>
      ) : query.isError ? (
        <div style={{ padding: 16 }}>
          <ErrorState title={`Could not load ${noun}`} error={query.error} onRetry={() => void query.refetch()} />
        </div>
      ) : isEmpty ? (
        <EmptyState py={56} icon={empty.icon} variant="light" title={empty.title} description={empty.description}>
          <EmptyState.Actions>{empty.action}</EmptyState.Actions>
        </EmptyState>
      ) : (
        props.children
      )}
    </Paper>
  )
}
