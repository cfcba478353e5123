// Cancel an analysis or an import, after a confirmation that says what is kept. Work under way
// stops after the page it is writing, so the button says "Cancelling…" until it has.
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconPlayerStop } from '@tabler/icons-react'
import { useCancelMigration, type MigrationView } from '../../api/migration.ts'
import { ErrorState } from '../../components/ErrorState.tsx'

export function CancelMigrationButton({ migration }: { migration: MigrationView }) {
  const [opened, { open, close }] = useDisclosure(false)
  const cancel = useCancelMigration(migration.id)
  const importing = migration.status !== 'analyzing'
  if (migration.cancel_requested) {
    return (
      <Button variant="default" color="red" loading loaderProps={{ type: 'dots' }} disabled>
        Cancelling…
      </Button>
    )
  }
  return (
    <>
      <Button variant="default" color="red" leftSection={<IconPlayerStop size={16} />} onClick={open}>
        {importing ? 'Cancel migration' : 'Stop analysis'}
      </Button>
      <Modal opened={opened} onClose={close} title={importing ? 'Cancel this migration?' : 'Stop the analysis?'}>
        <Stack>
          <Text size="sm">
            {importing
              ? 'The import stops after the batch it is writing. Records imported until then stay in Cairn and keep their link to the source, and the validation summary shows what came over. A cancelled migration cannot be resumed; start a new one to import the rest.'
              : 'Cairn stops reading the source. Nothing has been imported; you can start a new migration at any time.'}
          </Text>
          {cancel.isError && <ErrorState title="Could not cancel" error={cancel.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep going
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate(undefined, { onSuccess: close })}>
              {importing ? 'Cancel migration' : 'Stop analysis'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  )
}
