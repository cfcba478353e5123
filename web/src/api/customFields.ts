// Custom field definitions over REST (/api/v1/custom-fields): the organization's fields per kind,
// read by forms, record pages and lists, and managed in Settings -> Fields by administrators.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'
import type { KindName } from '../kinds.ts'

export type CustomField = Schemas['CustomField']
export type NewCustomField = Schemas['CustomFieldCreate']
export type CustomFieldChange = Schemas['CustomFieldUpdate']

const KEY = ['custom-fields'] as const

/** Every definition of the organization (one request serves every kind's page). */
export function useAllCustomFields() {
  return useQuery({
    queryKey: KEY,
    queryFn: async () => (await call(() => cairn.GET('/api/v1/custom-fields'))).data,
    staleTime: 60_000,
  })
}

/** The definitions of one kind, in creation order; empty while loading. */
export function useCustomFields(kind: KindName): { fields: CustomField[]; isPending: boolean; isError: boolean } {
  const all = useAllCustomFields()
  return { fields: (all.data ?? []).filter((f) => f.kind === kind), isPending: all.isPending, isError: all.isError }
}

export function useCreateCustomField() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: NewCustomField) => call(() => cairn.POST('/api/v1/custom-fields', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}

export function useUpdateCustomField(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: CustomFieldChange) => call(() => cairn.PATCH('/api/v1/custom-fields/{id}', { params: { path: { id } }, body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}

export function useDeleteCustomField(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: () => call(() => cairn.DELETE('/api/v1/custom-fields/{id}', { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}
