// Settings -> Members over REST: the organization's members (list, change a role, remove) and
// invitations (invite, list, revoke). An invitation's link exists only in the invite response.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type Member = Schemas['Member']
export type Role = Member['role']
export type Invitation = Schemas['Invitation']
export type CreatedInvitation = Schemas['InvitationCreated']

const MEMBERS = ['members'] as const
const INVITATIONS = ['invitations'] as const
const PAGE = 200

export function useMembers(enabled = true) {
  return useInfiniteQuery({
    queryKey: MEMBERS,
    queryFn: ({ pageParam }) => call(() => cairn.GET('/api/v1/members', { params: { query: { limit: PAGE, cursor: pageParam ?? undefined } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  })
}

export function useInvitations(enabled = true) {
  return useInfiniteQuery({
    queryKey: INVITATIONS,
    queryFn: ({ pageParam }) => call(() => cairn.GET('/api/v1/invitations', { params: { query: { limit: PAGE, cursor: pageParam ?? undefined } } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  })
}

export function useChangeRole() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => call(() => cairn.PATCH('/api/v1/members/{user_id}', { params: { path: { user_id: userId } }, body: { role } })),
    // One's own role may have changed: /me decides what the app shows.
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: MEMBERS }), client.invalidateQueries({ queryKey: ['me'] })]),
  })
}

export function useRemoveMember() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => call(() => cairn.DELETE('/api/v1/members/{user_id}', { params: { path: { user_id: userId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: MEMBERS }),
  })
}

export function useInvite() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: Schemas['InvitationCreate']) => call(() => cairn.POST('/api/v1/invitations', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS }),
  })
}

export function useRevokeInvitation() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => call(() => cairn.DELETE('/api/v1/invitations/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: INVITATIONS }),
  })
}
