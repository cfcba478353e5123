// Revoke with a confirmation modal: the client's tokens stop working at once.
import { Button, Group, Modal, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useRevokeApiClient, type ApiClient } from '../../api/settings.ts'
import { ErrorState } from '../../components/ErrorState.tsx'

export function RevokeClientButton({ client }: { client: ApiClient }) {
  const [opened, { open, close }] = useDisclosure(false)
  const revoke = useRevokeApiClient()
  return (
    <>
      <Button size="xs" variant="light" color="red" onClick={open} aria-label={`Revoke ${client.name}`}>
        Revoke
      </Button>
      <Modal opened={opened} onClose={close} title={<Text fw={650}>Revoke {client.name}?</Text>} centered>
        <Text size="sm">
          The integration is signed out at once: its access and refresh tokens stop working, and it cannot ask for access again. This cannot
          be undone; to reconnect it, create a new client.
        </Text>
        {revoke.isError && (
          <div style={{ marginTop: 12 }}>
            <ErrorState title="Could not revoke" error={revoke.error} />
          </div>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(client.client_id, { onSuccess: close })}>
            Revoke client
          </Button>
        </Group>
      </Modal>
    </>
  )
}
