// Settings -> API over REST: the organization's OAuth clients (list, create, revoke). Admins and
// browser sessions only; the client secret exists only in the create response.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type ApiClient = Schemas['ApiClient']
export type Registration = ApiClient['registration']
export type NewApiClient = Schemas['ApiClientCreate']
/** The create response: the only time the secret is ever sent. */
export type CreatedApiClient = Schemas['ApiClientCreated']

const KEY = ['settings', 'api-clients'] as const

export function useApiClients(enabled = true) {
  return useQuery({
    queryKey: KEY,
    queryFn: async () => (await call(() => cairn.GET('/api/v1/settings/api-clients'))).data ?? [],
    enabled,
  })
}

export function useCreateApiClient() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: NewApiClient) => call(() => cairn.POST('/api/v1/settings/api-clients', { body })),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}

export function useRevokeApiClient() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (clientId: string) => call(() => cairn.DELETE('/api/v1/settings/api-clients/{client_id}', { params: { path: { client_id: clientId } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}
