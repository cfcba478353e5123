// An owner's name where a record shows it (tables, record pages): "Ada Lovelace", "You" for oneself.
import { Group, Text } from '@mantine/core'
import { useMe } from '../../api/queries.ts'
import { useMemberDirectory } from './useMemberDirectory.ts'

export function OwnerName({ id }: { id: string }) {
  const me = useMe()
  const directory = useMemberDirectory()
  const member = directory.data?.byId.get(id)
  const isMe = me.data?.user?.id === id
  if (!member) {
    return (
      <Text span size="sm" c="dimmed" title={id}>
        {isMe ? `${me.data?.user?.name ?? 'You'} (you)` : directory.isPending ? '…' : 'Former member'}
      </Text>
    )
  }
  return (
    <Group gap={4} wrap="nowrap" component="span" title={member.email}>
      <Text span size="sm">
        {member.name}
      </Text>
      {isMe && (
        <Text span size="sm" c="dimmed">
          (you)
        </Text>
      )}
    </Group>
  )
}
