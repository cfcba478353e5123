// Who made a change, as a name over a dimmed line ("by Ana Diaz" under "CSV import"), and the
// channel it came in by as a badge.
import { Badge, Text, type MantineSize } from '@mantine/core'
import type { Actor, Channel } from '../../api/operations.ts'
import { actorDetail, actorText, CHANNEL_COLORS, CHANNEL_LABELS } from './actorText.ts'

export function ActorName({ actor, size = 'sm' }: { actor: Actor; size?: MantineSize }) {
  const detail = actorDetail(actor)
  return (
    <>
      <Text size={size} fw={500} span={size === 'xs'}>
        {actorText(actor)}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed" span={size === 'xs'}>
          {detail}
        </Text>
      )}
    </>
  )
}

/** The door a change came in by, as a coloured badge. */
export function ChannelBadge({ channel, size = 'sm' }: { channel: Channel; size?: MantineSize }) {
  return (
    <Badge size={size} variant="light" radius="sm" color={CHANNEL_COLORS[channel] ?? 'gray'}>
      {CHANNEL_LABELS[channel] ?? channel}
    </Badge>
  )
}
