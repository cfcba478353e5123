// Delete with a confirmation modal; goes back to the kind's list afterwards.
import { Button, Group, Modal, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconTrash } from '@tabler/icons-react'
import { useNavigate } from 'react-router'
import { useDeleteRecord } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { lowerLabel, type RecordKind } from '../../kinds.ts'

export function DeleteRecordButton({ kind, id, title }: { kind: RecordKind; id: string; title: string }) {
  const [opened, { open, close }] = useDisclosure(false)
  const remove = useDeleteRecord(kind, id)
  const navigate = useNavigate()
  return (
    <>
      <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={open}>
        Delete
      </Button>
      <Modal opened={opened} onClose={close} title={`Delete ${lowerLabel(kind)}?`} centered>
        <Text size="sm" mb="md">
          <strong>{title}</strong> will be deleted. This cannot be undone.
        </Text>
        {remove.isError && <ErrorState title="Could not delete" error={remove.error} />}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(undefined, { onSuccess: () => navigate(`/${kind.path}`, { replace: true }) })}>
            Delete {lowerLabel(kind)}
          </Button>
        </Group>
      </Modal>
    </>
  )
}
