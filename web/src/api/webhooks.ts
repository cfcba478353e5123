// Settings -> Webhooks over REST: endpoints (list, read, create, change, delete), the delivery log
// (paged), retrying a delivery and sending a test event. A generated secret exists only in the
// create (or change) response.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, queryString, type Page } from './client.ts'
import type { WebhookView as Webhook } from '../../../src/webhooks/webhook.repository.ts'
import type { WebhookInput as WebhookBody } from '../../../src/webhooks/webhook.service.ts'
import type { DeliveryView as Delivery } from '../../../src/webhooks/delivery.repository.ts'

// The shapes are the server's own (type-only imports vanish from the bundle).
export type { Webhook, WebhookBody, Delivery }
export type SavedWebhook = Webhook & { secret: string | null }

const ALL = ['webhooks'] as const
const one = (id: string) => ['webhooks', id] as const
const log = (id: string) => ['webhooks', id, 'deliveries'] as const

export function useWebhooks(enabled = true) {
  return useQuery({ queryKey: ALL, queryFn: () => api.get<Page<Webhook>>('/webhooks?limit=50'), enabled })
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: one(id), queryFn: () => api.get<Webhook>(`/webhooks/${id}`), refetchInterval: 5000 })
}

/** The log refreshes itself while anything in it is still waiting to be sent. */
export function useDeliveries(id: string) {
  return useInfiniteQuery({
    queryKey: log(id),
    queryFn: ({ pageParam }) => api.get<Page<Delivery>>(`/webhooks/${id}/deliveries${queryString({ limit: 20, cursor: pageParam })}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending')) ? 1500 : 10_000),
  })
}

function useInvalidate() {
  const client = useQueryClient()
  return () => void client.invalidateQueries({ queryKey: ALL })
}

export function useCreateWebhook() {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: (body: WebhookBody) => api.post<SavedWebhook>('/webhooks', body), onSuccess: invalidate })
}

export function useUpdateWebhook(id: string) {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: (body: WebhookBody) => api.patch<SavedWebhook>(`/webhooks/${id}`, body), onSuccess: invalidate })
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: (id: string) => api.delete(`/webhooks/${id}`), onSuccess: invalidate })
}

export function useSendTestEvent(id: string) {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: () => api.post<Delivery>(`/webhooks/${id}/test`), onSuccess: invalidate })
}

export function useRetryDelivery(id: string) {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: (deliveryId: string) => api.post<Delivery>(`/webhooks/${id}/deliveries/${deliveryId}/retry`), onSuccess: invalidate })
}
