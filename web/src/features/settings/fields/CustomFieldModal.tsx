// Create or edit a custom field. The body is checked in the browser against the API's own schema
// (custom-fields.schemas.ts) before it is sent; the server's field errors land under their inputs.
// The API name is proposed from the label until edited, and never changes after creation.
import { Alert, Button, Checkbox, Code, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useState } from 'react'
import { customFieldCreateSchema, customFieldUpdateSchema, CUSTOM_FIELD_TYPES, suggestedName } from '../../../../../src/web-contracts.ts'
import { ApiError } from '../../../api/client.ts'
import { useCreateCustomField, useUpdateCustomField, type CustomField } from '../../../api/customFields.ts'
import type { KindName, RecordKind } from '../../../kinds.ts'
import { schemaProblems } from '../../records/schemaCheck.ts'
import { PicklistOptionsEditor } from './PicklistOptionsEditor.tsx'
import { TYPE_HINTS, TYPE_LABELS } from './customFieldText.ts'

interface Props {
  kind: RecordKind
  /** The field to edit; absent: a new one. */
  field?: CustomField
  onClose: () => void
}

function serverErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {}
  return Object.fromEntries(error.fieldErrors.map((e) => [e.field, e.message.charAt(0).toUpperCase() + e.message.slice(1)]))
}

export function CustomFieldModal({ kind, field, onClose }: Props) {
  const create = useCreateCustomField()
  const update = useUpdateCustomField(field?.id ?? '')
  const mutation = field ? update : create
  const [label, setLabel] = useState(field?.label ?? '')
  const [name, setName] = useState(field?.name ?? '')
  const [nameEdited, setNameEdited] = useState(Boolean(field))
  const [type, setType] = useState<CustomField['type']>(field?.type ?? 'text')
  const [options, setOptions] = useState<string[]>(field?.options.length ? field.options : [''])
  const [required, setRequired] = useState(field?.required ?? false)
  const [checkErrors, setCheckErrors] = useState<Record<string, string>>({})
  const errors = { ...serverErrors(mutation.error), ...checkErrors }

  const body = () => {
    const common = { label: label.trim(), type, options: type === 'picklist' ? options.map((o) => o.trim()) : [], required }
    return field ? common : { ...common, kind: kind.name as KindName, name }
  }
  const submit = () => {
    const b = body()
    const problems = schemaProblems((field ? customFieldUpdateSchema : customFieldCreateSchema) as unknown as Record<string, unknown>, b)
    const local: Record<string, string> = Object.fromEntries(problems.map((p) => [p.field, p.field === 'name' && p.message === 'Has an invalid format' ? 'Use lower-case letters, digits and _, starting with a letter' : p.message]))
    if (type === 'picklist') {
      b.options.forEach((o, i) => {
        if (o === '') local[`options[${i}]`] = 'Enter the option or remove it'
        else if (b.options.indexOf(o) !== i) local[`options[${i}]`] = 'Listed twice'
      })
    }
    if (Object.keys(local).length > 0) {
      setCheckErrors(local)
      return
    }
    setCheckErrors({})
    if (field) update.mutate(b, { onSuccess: onClose })
    else create.mutate(b as Parameters<typeof create.mutate>[0], { onSuccess: onClose })
  }
  const conflict = mutation.error instanceof ApiError && mutation.error.fieldErrors.length === 0 ? mutation.error : null

  return (
    <Modal opened onClose={onClose} title={<Text fw={650}>{field ? `Edit ${field.label}` : `New ${kind.label.toLowerCase()} field`}</Text>} centered size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <Stack gap="md">
          {conflict && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Could not save" role="alert">
              {conflict.status === 409 || conflict.status === 403 ? conflict.message : 'Something went wrong on our side and nothing was saved. Try again in a moment.'}
            </Alert>
          )}
          <TextInput
            label="Label"
            aria-label="Label"
            description="What people see in forms, on record pages and as a list column."
            withAsterisk
            data-autofocus
            value={label}
            error={errors.label}
            onChange={(e) => {
              const next = e.currentTarget.value
              setLabel(next)
              if (!nameEdited) setName(next.trim() ? suggestedName(next) : '')
            }}
          />
          {field ? (
            <div>
              <Text size="sm" fw={500}>
                API name
              </Text>
              <Code>custom_fields.{field.name}</Code>
              <Text size="xs" c="dimmed" mt={4}>
                The API name never changes, so integrations keep working.
              </Text>
            </div>
          ) : (
            <TextInput
              label="API name"
              aria-label="API name"
              description="The key in custom_fields for integrations. Cannot be changed later."
              withAsterisk
              value={name}
              error={errors.name}
              leftSection={<Text size="xs" c="dimmed" pl={6}>custom_fields.</Text>}
              leftSectionWidth={98}
              onChange={(e) => {
                setName(e.currentTarget.value)
                setNameEdited(true)
              }}
            />
          )}
          <Select
            label="Type"
            aria-label="Type"
            withAsterisk
            allowDeselect={false}
            data={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
            value={type}
            onChange={(v) => v && setType(v as CustomField['type'])}
            description={field ? `${TYPE_HINTS[type]} The type can change only while no record has a value.` : TYPE_HINTS[type]}
            error={errors.type}
            comboboxProps={{ withinPortal: false }}
          />
          {type === 'picklist' && <PicklistOptionsEditor options={options} onChange={setOptions} errors={errors} />}
          <Checkbox
            label="Required"
            description="New records must have a value, and it can never be cleared. Existing records are not changed."
            checked={required}
            onChange={(e) => setRequired(e.currentTarget.checked)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {field ? 'Save field' : 'Create field'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
