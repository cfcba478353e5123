// The create/edit form of a kind, generated from its writable fields; server validation errors
// land under their fields, anything else in an alert at the top.
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client.ts'
import { writableFields, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { fieldGroups } from './fieldGroups.ts'
import { FormField, type FormValue } from './FormField.tsx'
import { initialValues, requestBody } from './formValues.ts'

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

function fieldErrorsOf(error: unknown, names: Set<string>): { byField: Record<string, string>; rest: string[] } {
  const byField: Record<string, string> = {}
  const rest: string[] = []
  if (error instanceof ApiError) {
    for (const e of error.fieldErrors) {
      const name = e.field.replace(/^\/+/, '').replace(/^body[./]/, '')
      if (names.has(name)) byField[name] = byField[name] ? `${byField[name]}; ${e.message}` : capitalize(e.message)
      else rest.push(`${e.field}: ${e.message}`)
    }
  }
  return { byField, rest }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

export function RecordForm({ kind, record, defaults, submitting, error, onSubmit, onCancel }: Props) {
  const fields = writableFields(kind)
  const [values, setValues] = useState<Record<string, FormValue>>(() => ({ ...initialValues(fields, record), ...defaults }))
  const { byField, rest } = fieldErrorsOf(error, new Set(fields.map((f) => f.name)))
  const alertRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (error) alertRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' })
  }, [error])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(requestBody(fields, values, record))
  }
  const set = (name: string, value: FormValue) => {
    setValues((prev) => ({ ...prev, [name]: value }))
  }

  return (
    <form onSubmit={submit} noValidate aria-label={record ? `Edit ${kind.label.toLowerCase()}` : `New ${kind.label.toLowerCase()}`}>
      <Stack gap="lg">
        {error != null && (
          <Alert ref={alertRef} color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Could not save" role="alert">
            {error instanceof Error ? error.message : 'Something went wrong.'}
            {rest.length > 0 && <div>{rest.join('. ')}</div>}
          </Alert>
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
