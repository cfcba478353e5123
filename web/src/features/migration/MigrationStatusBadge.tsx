// A migration's status as a coloured badge; a paused or failed one explains itself on hover.
import { Badge, Tooltip } from '@mantine/core'
import type { MigrationView } from '../../api/migration.ts'
import { MIGRATION_STATUS } from './migrationText.ts'

export function MigrationStatusBadge({ migration }: { migration: Pick<MigrationView, 'status' | 'status_reason' | 'phase'> }) {
  const { label, color } = MIGRATION_STATUS[migration.status]
  // The phase matters while one runs and between phases; once all are done it is just "completed".
  const between = migration.phase?.next_available || migration.status === 'running' || migration.status === 'paused'
  const phase = migration.phase && between ? ` · phase ${migration.phase.current} of ${migration.phase.total}` : ''
  const badge = (
    <Badge color={color} variant="light" styles={{ label: { overflow: 'visible' } }}>
      {label}
      {phase}
    </Badge>
  )
  if (!migration.status_reason) return badge
  return (
    <Tooltip label={migration.status_reason} multiline w={320} withArrow>
      {badge}
    </Tooltip>
  )
}
