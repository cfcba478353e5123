// Add or edit a webhook: the URL, the events, an optional description, how deliveries are signed
// (not at all, a generated secret shown once, or the integrator's own), whether a record's events
// go in order, and a filter on the record. Server field errors land under their inputs.
import { Alert, Button, Group, Modal, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { IconAlertCircle, IconAlertTriangle } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { ApiError, type FieldError } from '../../api/client.ts'
import { useCreateWebhook, useUpdateWebhook, type SavedWebhook, type Webhook, type WebhookBody } from '../../api/webhooks.ts'
import { CopyableValue } from '../../components/CopyableValue.tsx'
import { EventChecklist } from './EventChecklist.tsx'
import { draftOf, FilterEditor, filterOf } from './FilterEditor.tsx'

type Signing = 'keep' | 'none' | 'generate' | 'own'
type Ordering = Webhook['ordering']
type Payload = Webhook['payload']

function fieldErrors(error: unknown): { url?: string; events?: string; secret?: string; filter?: FieldError[]; other?: string } {
  if (!(error instanceof ApiError)) return {}
  const out: { url?: string; events?: string; secret?: string; filter?: FieldError[]; other?: string } = {}
  for (const e of error.fieldErrors) {
    const field = e.field.replace(/^\/+/, '').split(/[./[]/)[0]
    if (field === 'filter') out.filter = [...(out.filter ?? []), e]
    else if (field === 'url' || field === 'events' || field === 'secret') out[field] = e.message.charAt(0).toUpperCase() + e.message.slice(1)
  }
  if (Object.keys(out).length === 0) out.other = error.message
  return out
}

function SecretReveal({ saved, onDone }: { saved: SavedWebhook; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        Deliveries to <strong>{saved.url}</strong> are now signed with this secret (Standard Webhooks, HMAC-SHA256). Configure it in your receiver.
      </Text>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
        This is the only time the signing secret is shown. If it is lost, generate a new one from this webhook&apos;s settings.
      </Alert>
      <CopyableValue label="Signing secret" value={saved.secret!} />
      <Group justify="flex-end">
        <Button onClick={onDone}>I have copied the secret</Button>
      </Group>
    </Stack>
  )
}

/** One of a few ways to deliver, with a line saying what the chosen one means. */
function DeliveryChoice<T extends string>({ label, value, onChange, options }: { label: string; value: T; onChange: (v: T) => void; options: { value: T; label: string; help: string }[] }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <SegmentedControl value={value} onChange={(v) => onChange(v as T)} data={options.map(({ value, label }) => ({ value, label }))} aria-label={label} />
      <Text size="xs" c="dimmed">
        {options.find((o) => o.value === value)?.help}
      </Text>
    </Stack>
  )
}

function WebhookForm({ webhook, onSaved, onCancel }: { webhook?: Webhook; onSaved: (w: SavedWebhook) => void; onCancel: () => void }) {
  const create = useCreateWebhook()
  const update = useUpdateWebhook(webhook?.id ?? '')
  const mutation = webhook ? update : create
  const [url, setUrl] = useState(webhook?.url ?? '')
  const [events, setEvents] = useState<string[]>(webhook?.events ?? [])
  const [description, setDescription] = useState(webhook?.description ?? '')
  const [signing, setSigning] = useState<Signing>(webhook ? 'keep' : 'generate')
  const [secret, setSecret] = useState('')
  const [ordering, setOrdering] = useState<Ordering>(webhook?.ordering ?? 'none')
  const [payload, setPayload] = useState<Payload>(webhook?.payload ?? 'full')
  const [filter, setFilter] = useState(draftOf(webhook?.filter))
  // The server's verdict on the filter no longer holds once it is edited.
  const [filterEdited, setFilterEdited] = useState(false)
  const [local, setLocal] = useState<{ events?: string; filter?: FieldError[] }>({})
  const server = fieldErrors(mutation.error)
  const errors = { ...server, ...(filterEdited ? { filter: undefined } : {}), ...local }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (events.length === 0) return setLocal({ events: 'Choose at least one event.' })
    const filterBody = filterOf(filter)
    if (filterBody === undefined) return setLocal({ filter: [{ field: 'filter', message: 'is not a JSON object; fix it or turn the filter off' }] })
    setLocal({})
    setFilterEdited(false)
    const body: WebhookBody = { url: url.trim(), events, description: description.trim() || null, ordering, payload, filter: filterBody }
    if (signing === 'generate') body.generate_secret = true
    if (signing === 'own') body.secret = secret
    // Only an existing signed webhook has a secret to remove.
    if (signing === 'none' && webhook) body.secret = null
    mutation.mutate(body, { onSuccess: onSaved })
  }

  const signingOptions = [
    ...(webhook ? [{ value: 'keep', label: webhook.secret_set ? 'Keep secret' : 'Unsigned' }] : []),
    { value: 'generate', label: webhook?.secret_set ? 'New secret' : 'Generate secret' },
    { value: 'own', label: 'Use my own' },
    ...(!webhook || webhook.secret_set ? [{ value: 'none', label: 'Don’t sign' }] : []),
  ]

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Endpoint URL"
          description="Where Cairn POSTs events. HTTPS, publicly reachable."
          placeholder="https://example.com/webhooks/cairn"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url}
          data-autofocus
        />
        <EventChecklist value={events} onChange={setEvents} error={errors.events} />
        <TextInput label="Description" placeholder="What this endpoint is for (optional)" value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={500} />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            Signing
          </Text>
          <SegmentedControl value={signing} onChange={(v) => setSigning(v as Signing)} data={signingOptions} aria-label="Signing" />
          <Text size="xs" c="dimmed">
            Signed deliveries carry webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks), so your receiver can prove they came from Cairn.
          </Text>
          {signing === 'own' && (
            <PasswordInput label="Signing secret" description="At least 16 characters, or a whsec_ secret." value={secret} onChange={(e) => setSecret(e.currentTarget.value)} error={errors.secret} required />
          )}
          {signing !== 'own' && errors.secret && (
            <Text size="xs" c="red">
              {errors.secret}
            </Text>
          )}
        </Stack>
        <DeliveryChoice
          label="Delivery order"
          value={ordering}
          onChange={setOrdering}
          options={[
            { value: 'none', label: 'Fastest (any order)', help: 'Events are sent in parallel as soon as they happen; use each event’s timestamp to order them.' },
            {
              value: 'per_record',
              label: 'In order per record',
              help: 'Each record’s events arrive one at a time in the order they happened; the next waits until the previous one succeeded or was given up (a failing event holds up only its own record).',
            },
          ]}
        />
        <DeliveryChoice
          label="Payload"
          value={payload}
          onChange={setPayload}
          options={[
            { value: 'full', label: 'Whole event', help: 'Each delivery carries the record as it is after the change, and the old values of what changed.' },
            {
              value: 'thin',
              label: 'Thin (reference only)',
              help: 'Each delivery is {id, seq, type, timestamp, object_id}: read the record from the API when it arrives, so nothing sensitive travels in the webhook.',
            },
          ]}
        />
        <FilterEditor
          value={filter}
          onChange={(v) => {
            setFilter(v)
            setFilterEdited(true)
          }}
          errors={errors.filter ?? []}
        />
        {errors.other && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {errors.other}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {webhook ? 'Save changes' : 'Add webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

export function WebhookFormModal({ opened, onClose, webhook }: { opened: boolean; onClose: () => void; webhook?: Webhook }) {
  const [saved, setSaved] = useState<SavedWebhook | null>(null)
  const close = () => {
    setSaved(null)
    onClose()
  }
  return (
    <Modal opened={opened} onClose={close} title={saved ? 'Signing secret' : webhook ? 'Edit webhook' : 'Add webhook'} size="xl" closeOnClickOutside={!saved}>
      {saved ? (
        <SecretReveal saved={saved} onDone={close} />
      ) : (
        <WebhookForm key={webhook?.id ?? 'new'} webhook={webhook} onCancel={close} onSaved={(w) => (w.secret ? setSaved(w) : close())} />
      )}
    </Modal>
  )
}
