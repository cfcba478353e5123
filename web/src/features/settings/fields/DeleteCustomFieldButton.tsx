// Delete a custom field after a confirmation that says what happens to the values records hold.
import { Button, Code, Group, Modal, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useDeleteCustomField, type CustomField } from '../../../api/customFields.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'

export function DeleteCustomFieldButton({ field }: { field: CustomField }) {
  const [opened, { open, close }] = useDisclosure(false)
  const remove = useDeleteCustomField(field.id)
  return (
    <>
      <Button size="xs" variant="light" color="red" onClick={open} aria-label={`Delete ${field.label}`}>
        Delete
      </Button>
      <Modal opened={opened} onClose={close} title={<Text fw={650}>Delete the field {field.label}?</Text>} centered>
        <Text size="sm">
          The field disappears from forms, record pages, lists and filters, and its values are no longer checked. Records keep what they hold under{' '}
          <Code>{field.name}</Code>, and a new field with the same API name shows those values again.
        </Text>
        {remove.isError && (
          <div style={{ marginTop: 12 }}>
            <ErrorState title="Could not delete" error={remove.error} />
          </div>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: close })}>
            Delete field
          </Button>
        </Group>
      </Modal>
    </>
  )
}
