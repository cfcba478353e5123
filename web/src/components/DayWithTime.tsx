// A date shown as its day in a table cell, with the full date and time on hover.
import { Text, Tooltip } from '@mantine/core'
import { formatDateTime } from '../kinds.ts'
import { formatDay } from './time.ts'

export function DayWithTime({ value }: { value: string }) {
  return (
    <Tooltip label={formatDateTime(value)} withArrow>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDay(value)}
      </Text>
    </Tooltip>
  )
}
