// The "Create client" modal: name, redirect URIs, scopes; on success it turns into the
// one-time reveal of the client id and secret. Server field errors land under their inputs.
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client.ts'
import { useCreateApiClient, type CreatedApiClient, type NewApiClient } from '../../api/settings.ts'
import { ClientSecretReveal } from './ClientSecretReveal.tsx'
import { RedirectUriRows, ScopeChoices } from './ClientFormFields.tsx'

interface FormErrors {
  name?: string
  uris: Record<number, string>
  urisAll?: string
  scopes?: string
  other: string[]
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** Server errors by field; `rowOf` maps an index of the sent list back to its input row. */
function serverErrors(error: unknown, rowOf: number[]): FormErrors {
  const out: FormErrors = { uris: {}, other: [] }
  if (!(error instanceof ApiError)) return out
  for (const e of error.fieldErrors) {
    const field = e.field.replace(/^\/+/, '').replace(/^body[./]/, '').replace(/\//g, '.')
    const uri = /^redirect_uris\.(\d+)$/.exec(field)
    if (uri) out.uris[rowOf[Number(uri[1])] ?? 0] = capitalize(e.message)
    else if (field === 'redirect_uris') out.urisAll = capitalize(e.message)
    else if (field === 'name') out.name = capitalize(e.message)
    else if (field.startsWith('scopes')) out.scopes = capitalize(e.message)
    else out.other.push(`${e.field}: ${e.message}`)
  }
  return out
}

function ClientForm({ onCreated, onCancel }: { onCreated: (c: CreatedApiClient) => void; onCancel: () => void }) {
  const create = useCreateApiClient()
  const [name, setName] = useState('')
  const [uris, setUris] = useState<string[]>([''])
  const [scopes, setScopes] = useState<string[]>(['crm:read'])
  const [local, setLocal] = useState<FormErrors | null>(null)
  const [sentRows, setSentRows] = useState<number[]>([])

  const errors = local ?? serverErrors(create.error, sentRows)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const rows = uris.map((u, i) => [u.trim(), i] as const).filter(([u]) => u !== '')
    const check: FormErrors = { uris: {}, other: [] }
    if (name.trim() === '') check.name = 'Give the client a name'
    if (rows.length === 0) check.uris[0] = 'Add at least one redirect URI'
    if (scopes.length === 0) check.scopes = 'Choose at least one scope'
    if (check.name || check.scopes || Object.keys(check.uris).length) {
      setLocal(check)
      return
    }
    setLocal(null)
    setSentRows(rows.map(([, i]) => i))
    // ScopeChoices offers only the supported scopes.
    create.mutate({ name: name.trim(), redirect_uris: rows.map(([u]) => u), scopes: scopes as NewApiClient['scopes'] }, { onSuccess: onCreated })
  }
  const otherError = create.error != null && !(create.error instanceof ApiError && create.error.fieldErrors.length > 0)

  return (
    <form onSubmit={submit} noValidate aria-label="Create API client">
      <Stack gap="md">
        {otherError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Could not create the client" role="alert">
            {create.error instanceof Error ? create.error.message : 'Something went wrong.'}
          </Alert>
        )}
        <TextInput
          label="Name"
          aria-label="Name"
          withAsterisk
          description="Shown to people when the integration asks for access."
          placeholder="Support dashboard"
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <RedirectUriRows uris={uris} onChange={setUris} errors={errors.uris} listError={errors.urisAll} />
        <ScopeChoices value={scopes} onChange={setScopes} error={errors.scopes} />
        {errors.other.length > 0 && (
          <Text size="sm" c="red">
            {errors.other.join('. ')}
          </Text>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create client
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

export function CreateClientModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedApiClient | null>(null)
  // A new form each time the modal opens; the secret is dropped from memory on close.
  const [formKey, setFormKey] = useState(0)
  const close = () => {
    setCreated(null)
    setFormKey((k) => k + 1)
    onClose()
  }
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={<Text fw={650} size="lg">{created ? 'Client created' : 'Create API client'}</Text>}
      size="lg"
      centered
      // Closing by accident would lose the secret for good.
      closeOnClickOutside={!created}
      closeOnEscape={!created}
    >
      {created ? <ClientSecretReveal created={created} onDone={close} /> : <ClientForm key={formKey} onCreated={setCreated} onCancel={close} />}
    </Modal>
  )
}
