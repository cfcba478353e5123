// An owner as initials in a small round avatar, their name in a tooltip: the pipeline board's cards.
import { Avatar, Tooltip } from '@mantine/core'
import { initials } from '../members/memberText.ts'
import { useMemberDirectory } from './useMemberDirectory.ts'

export function OwnerAvatar({ ownerId }: { ownerId: string | null | undefined }) {
  const directory = useMemberDirectory()
  if (!ownerId) return null
  const member = directory.data?.byId.get(ownerId)
  const label = member ? `Owner: ${member.name}` : 'Owner: a former member'
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <Avatar size={24} radius="xl" color="indigo" aria-label={label} data-owner={ownerId}>
        {member ? initials(member.name, member.email) : '?'}
      </Avatar>
    </Tooltip>
  )
}
