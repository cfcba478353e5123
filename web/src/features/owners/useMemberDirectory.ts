// The organization's members by user id, for showing and choosing owners: every page of
// GET /members (an organization has tens or hundreds of people, not millions), cached for minutes.
import { useQuery } from '@tanstack/react-query'
import { cairn, call } from '../../api/client.ts'
import type { Member } from '../../api/members.ts'

export interface MemberDirectory {
  members: Member[]
  byId: Map<string, Member>
}

async function allMembers(): Promise<Member[]> {
  const out: Member[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await call(() => cairn.GET('/api/v1/members', { params: { query: { limit: 200, cursor } } }))
    out.push(...page.data)
    if (!page.has_more || !page.next_cursor) return out
    cursor = page.next_cursor
  }
}

export function useMemberDirectory() {
  return useQuery({
    queryKey: ['members', 'directory'],
    queryFn: async (): Promise<MemberDirectory> => {
      const members = (await allMembers()).sort((a, b) => a.name.localeCompare(b.name))
      return { members, byId: new Map(members.map((m) => [m.user_id, m])) }
    },
    staleTime: 5 * 60_000,
  })
}
