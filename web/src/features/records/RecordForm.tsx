// The create/edit form of a kind, generated from its writable fields and the organization's custom
// fields. The body is checked in the browser against the server's own schema before it is sent
// (formSchema.ts); server validation errors land under their fields, anything else in an alert.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { writableFields, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { fieldGroups } from './fieldGroups.ts'
import { FormField, type FormValue } from './FormField.tsx'
import { initialValues, requestBody } from './formValues.ts'
import { useCustomFields } from '../../api/customFields.ts'
import { CustomFieldInput } from './CustomFieldInput.tsx'
import { customFieldsBody, customToFormValue } from './customFieldValues.ts'
import { formBodySchema } from './formSchema.ts'
import { schemaProblems } from './schemaCheck.ts'

interface Props {
  kind: RecordKind
  record?: CrmRecord
  /** Initial values for a new record (from the URL). */
  defaults?: Record<string, string>
  submitting: boolean
  error: unknown
  onSubmit: (body: Record<string, unknown>) => void
  onCancel: () => void
}

function fieldErrorsOf(error: unknown, names: Set<string>): { byField: Record<string, string>; rest: { field: string; message: string }[] } {
  const byField: Record<string, string> = {}
  const rest: { field: string; message: string }[] = []
  if (error instanceof ApiError) {
    for (const e of error.fieldErrors) {
      const name = e.field.replace(/^\/+/, '').replace(/^body[./]/, '')
      if (names.has(name)) byField[name] = byField[name] ? `${byField[name]}; ${e.message}` : capitalize(e.message)
      else rest.push({ field: name, message: e.message })
    }
  }
  return { byField, rest }
}

/** What the alert says about a refused save: never the API's raw wording for field problems. */
function saveProblem(error: unknown): string {
  if (error instanceof ApiError && error.code === 'validation_failed') return 'Some values were not accepted. Fix the highlighted fields and save again.'
  if (error instanceof ApiError && error.status === 409) return error.message
  if (error instanceof ApiError && error.status === 0) return error.message
  return 'Something went wrong on our side and nothing was saved. Try again in a moment.'
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

export function RecordForm({ kind, record, defaults, submitting, error, onSubmit, onCancel }: Props) {
  const fields = writableFields(kind)
  const custom = useCustomFields(kind.name)
  const myId = useMe().data?.user?.id
  // A new record is its creator's (the service's default too); the owner picker shows it.
  const owned = fields.some((f) => f.name === 'owner_id')
  const [values, setValues] = useState<Record<string, FormValue>>(() => ({ ...initialValues(fields, record), ...(owned && !record && myId ? { owner_id: myId } : {}), ...defaults }))
  const ownerCleared = useRef(false)
  // Custom inputs the person changed; the others show the record's value (definitions load later).
  const [customValues, setCustomValues] = useState<Record<string, FormValue>>({})
  const [checkErrors, setCheckErrors] = useState<Record<string, string>>({})
  const names = new Set([...fields.map((f) => f.name), ...custom.fields.map((d) => `custom_fields.${d.name}`)])
  const server = fieldErrorsOf(error, names)
  const byField = { ...server.byField, ...checkErrors }
  const labels = new Map<string, string>([...fields.map((f) => [f.name, f.label] as const), ...custom.fields.map((d) => [`custom_fields.${d.name}`, d.label] as const)])
  const alertRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (error) alertRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' })
  }, [error])

  const customValue = (name: string): FormValue => customValues[name] ?? customToFormValue(custom.fields.find((d) => d.name === name)!, record?.custom_fields?.[name])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const body = requestBody(fields, values, record)
    // A cleared owner on a new record is "unassigned", not "omitted" (which the service reads as the creator).
    if (!record && owned && ownerCleared.current && values.owner_id === '') body.owner_id = null
    const customBody = customFieldsBody(custom.fields, Object.fromEntries(custom.fields.map((d) => [d.name, customValue(d.name)])), record?.custom_fields, !record)
    if (customBody !== undefined) body.custom_fields = customBody
    const problems = schemaProblems(formBodySchema(kind, custom.fields, !record), body)
    if (problems.length > 0) {
      // Nothing is sent: the person sees every problem under its field first.
      setCheckErrors(Object.fromEntries(problems.map((p) => [p.field, p.message])))
      requestAnimationFrame(() => document.querySelector('[aria-invalid="true"]')?.scrollIntoView({ behavior: 'smooth', block: 'center' }))
      return
    }
    setCheckErrors({})
    onSubmit(body)
  }
  const forget = (name: string) => setCheckErrors(({ [name]: _gone, ...others }) => others)
  const set = (name: string, value: FormValue) => {
    if (name === 'owner_id') ownerCleared.current = value === ''
    setValues((prev) => ({ ...prev, [name]: value }))
    forget(name)
  }
  const setCustom = (name: string, value: FormValue) => {
    setCustomValues((prev) => ({ ...prev, [name]: value }))
    forget(`custom_fields.${name}`)
  }
  const checkCount = Object.keys(checkErrors).length

  return (
    <form onSubmit={submit} noValidate aria-label={record ? `Edit ${kind.label.toLowerCase()}` : `New ${kind.label.toLowerCase()}`}>
      <Stack gap="lg">
        {checkCount > 0 ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Check the highlighted fields" role="alert">
            {checkCount === 1 ? 'One field needs' : `${checkCount} fields need`} attention before this {kind.label.toLowerCase()} can be saved. Nothing was sent.
          </Alert>
        ) : (
          error != null && (
            <Alert ref={alertRef} color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Could not save" role="alert">
              {saveProblem(error)}
              {server.rest.length > 0 && <div>{server.rest.map((r) => `${labels.get(r.field) ?? r.field}: ${r.message}`).join('. ')}</div>}
            </Alert>
          )
        )}
        {fieldGroups(kind, fields).map((group) => (
          <Paper key={group.title} withBorder p="lg" radius="md" shadow="xs">
            <Title order={4} mb="md">
              {group.title}
            </Title>
            <SimpleGrid cols={group.wide ? 1 : { base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              {group.fields.map((f) => (
                <FormField key={f.name} field={f} value={values[f.name]!} onChange={(v) => set(f.name, v)} error={byField[f.name]} />
              ))}
            </SimpleGrid>
          </Paper>
        ))}
        {custom.fields.length > 0 && (
          <Paper withBorder p="lg" radius="md" shadow="xs">
            <Title order={4} mb="md">
              Custom fields
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              {custom.fields.map((d) => (
                <CustomFieldInput key={d.id} def={d} value={customValue(d.name)} onChange={(v) => setCustom(d.name, v)} error={byField[`custom_fields.${d.name}`]} />
              ))}
            </SimpleGrid>
          </Paper>
        )}
        <Group justify="flex-end" gap="sm" pb="xl">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
