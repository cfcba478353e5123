// Settings -> Webhooks over REST: endpoints (list, read, create, change, delete), the delivery log
// (paged), retrying a delivery, sending a test event and replaying past events. A generated secret exists only in the
// create (or change) response.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type Webhook = Schemas['Webhook']
/** What the form sends: a create body, or a change, where a null secret stops signing. */
export type WebhookBody = Omit<Schemas['WebhookCreate'], 'secret'> & Pick<Schemas['WebhookUpdate'], 'secret'>
export type Delivery = Schemas['WebhookDelivery']
export type SavedWebhook = Schemas['WebhookWritten']
export type Replay = Schemas['WebhookReplay']

const ALL = ['webhooks'] as const
const one = (id: string) => ['webhooks', id] as const
const log = (id: string) => ['webhooks', id, 'deliveries'] as const

export function useWebhooks(enabled = true) {
  return useQuery({ queryKey: ALL, queryFn: () => call(() => cairn.GET('/api/v1/webhooks', { params: { query: { limit: 50 } } })), enabled })
}

/** Refreshes every second while a replay is queueing or its deliveries are on their way. */
export function useWebhook(id: string) {
  return useQuery({
    queryKey: one(id),
    queryFn: () => call(() => cairn.GET('/api/v1/webhooks/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => {
      const replay = query.state.data?.replay
      return replay && (replay.status === 'running' || replay.deliveries.pending > 0) ? 1000 : 5000
    },
  })
}

/** The log refreshes itself while anything in it is still waiting to be sent. */
export function useDeliveries(id: string) {
  return useInfiniteQuery({
    queryKey: log(id),
    queryFn: ({ pageParam }) =>
      call(() => cairn.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 20, cursor: pageParam ?? undefined } } })),
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
  // The form sets a null secret only when changing an existing webhook.
  return useMutation({ mutationFn: (body: WebhookBody) => call(() => cairn.POST('/api/v1/webhooks', { body: body as Schemas['WebhookCreate'] })), onSuccess: invalidate })
}

export function useUpdateWebhook(id: string) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: Schemas['WebhookUpdate']) => call(() => cairn.PATCH('/api/v1/webhooks/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: (id: string) => call(() => cairn.DELETE('/api/v1/webhooks/{id}', { params: { path: { id } } })), onSuccess: invalidate })
}

export function useSendTestEvent(id: string) {
  const invalidate = useInvalidate()
  return useMutation({ mutationFn: () => call(() => cairn.POST('/api/v1/webhooks/{id}/test', { params: { path: { id } } })), onSuccess: invalidate })
}

export function useRetryDelivery(id: string) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (deliveryId: string) => call(() => cairn.POST('/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry', { params: { path: { id, delivery_id: deliveryId } } })),
    onSuccess: invalidate,
  })
}

export function useReplay(id: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (since: number | string) => call(() => cairn.POST('/api/v1/webhooks/{id}/replay', { params: { path: { id } }, body: { since } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: one(id) }),
  })
}
