// Settings -> API over REST: the organization's OAuth clients (list, create, revoke). Admins and
// browser sessions only; the client secret exists only in the create response.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client.ts'

export type Registration = 'settings' | 'cli' | 'dynamic' | 'metadata_document'

export interface ApiClient {
  client_id: string
  name: string
  redirect_uris: string[]
  scopes: string[]
  registration: Registration
  origin: string | null
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  status: 'active' | 'revoked'
}

export interface NewApiClient {
  name: string
  redirect_uris: string[]
  scopes: string[]
}

/** The create response: the only time the secret is ever sent. */
export interface CreatedApiClient extends NewApiClient {
  client_id: string
  client_secret: string
}

const KEY = ['settings', 'api-clients'] as const

export function useApiClients(enabled = true) {
  return useQuery({
    queryKey: KEY,
    queryFn: async () => (await api.get<{ data: ApiClient[] }>('/settings/api-clients')).data,
    enabled,
  })
}

export function useCreateApiClient() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: NewApiClient) => api.post<CreatedApiClient>('/settings/api-clients', body),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}

export function useRevokeApiClient() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (clientId: string) => api.delete(`/settings/api-clients/${encodeURIComponent(clientId)}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: KEY }),
  })
}
