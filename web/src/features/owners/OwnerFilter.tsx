// The owner filter of a list or the pipeline board: anyone, me, unassigned, or one member
// (`owner_id=me|none|<user id>` in the URL and the API, as GitHub's `assignee=@me`).
import { Select } from '@mantine/core'
import { useMe } from '../../api/queries.ts'
import { useMemberDirectory } from './useMemberDirectory.ts'

interface Props {
  value: string | undefined
  onChange: (value: string | null) => void
}

export function OwnerFilter({ value, onChange }: Props) {
  const me = useMe()
  const directory = useMemberDirectory()
  const myId = me.data?.user?.id
  const members = (directory.data?.members ?? []).filter((m) => m.user_id !== myId).map((m) => ({ value: m.user_id, label: m.name }))
  const data = [
    { group: 'Quick', items: [{ value: 'me', label: 'My records' }, { value: 'none', label: 'Unassigned' }] },
    ...(members.length > 0 ? [{ group: 'Members', items: members }] : []),
  ]
  return (
    <Select
      aria-label="Owner"
      placeholder="Any owner"
      data={data}
      value={value ?? null}
      onChange={onChange}
      searchable
      clearable
      w={190}
      nothingFoundMessage="No member by that name"
    />
  )
}
