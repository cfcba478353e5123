// Saved views over REST (/api/v1/views, docs/views.md): a person's views of a list or of the
// pipeline board, and the organization's shared ones.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type SavedView = Schemas['SavedView']
export type NewView = Schemas['SavedViewCreate']
export type ViewChange = Schemas['SavedViewUpdate']
export type ViewKind = NewView['kind']

const key = (kind: ViewKind) => ['views', kind] as const

export function useViews(kind: ViewKind) {
  return useQuery({ queryKey: key(kind), queryFn: async () => (await call(() => cairn.GET('/api/v1/views', { params: { query: { kind } } }))).data })
}

export function useViewMutations(kind: ViewKind) {
  const client = useQueryClient()
  const onSuccess = () => void client.invalidateQueries({ queryKey: key(kind) })
  return {
    create: useMutation({ mutationFn: (body: NewView) => call(() => cairn.POST('/api/v1/views', { body })), onSuccess }),
    update: useMutation({ mutationFn: ({ id, ...body }: ViewChange & { id: string }) => call(() => cairn.PATCH('/api/v1/views/{id}', { params: { path: { id } }, body })), onSuccess }),
    remove: useMutation({ mutationFn: (id: string) => call(() => cairn.DELETE('/api/v1/views/{id}', { params: { path: { id } } })), onSuccess }),
  }
}
