// Settings -> API (/app/settings/api): the organization's OAuth clients for integrations, with
// create (secret shown once), revoke, and the endpoints integrators need. Administrators only.
import { Button, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconApi, IconPlus } from '@tabler/icons-react'
import { ApiError } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { useApiClients } from '../../api/settings.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'
import { SettingsListPanel } from '../../components/SettingsListPanel.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { ApiClientsTable } from './ApiClientsTable.tsx'
import { CreateClientModal } from './CreateClientModal.tsx'
import { IntegrationEndpoints } from './IntegrationEndpoints.tsx'

export function ApiClientsPage() {
  const me = useMe()
  const isAdmin = me.data?.role === 'admin'
  const clients = useApiClients(isAdmin)
  const [creating, { open, close }] = useDisclosure(false)
  const organization = me.data?.organization.name || 'this organization'

  if (!isAdmin || (clients.error instanceof ApiError && clients.error.code === 'admin_required')) {
    return (
      <>
        <PageHeader eyebrow="Settings" title="API" />
        <AdminsOnly
          title="Only administrators can manage API clients"
          description={`API clients give integrations access to the data of ${organization}, so only its administrators can see, create or revoke them. Ask an administrator if you need one.`}
        />
      </>
    )
  }

  const createButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Create client
    </Button>
  )
  const list = clients.data ?? []

  return (
    <>
      <PageHeader eyebrow="Settings" title="API" actions={list.length > 0 ? createButton : null} />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        API clients let other software — your scripts, an internal tool, an AI assistant — work with the records of {organization} on
        behalf of a person who approves the access. Each client gets a client ID and a secret and only the scopes you choose. Revoking a client
        cuts off its access at once.
      </Text>
      <Stack gap="lg">
        <SettingsListPanel
          query={clients}
          noun="API clients"
          isEmpty={list.length === 0}
          empty={{
            icon: <IconApi size={26} />,
            title: 'No API clients yet',
            description: 'Create a client for each integration that should reach your CRM data. You choose what it may do; people approve it when they connect.',
            action: createButton,
          }}
        >
          <ApiClientsTable clients={list} />
        </SettingsListPanel>
        <IntegrationEndpoints />
      </Stack>
      <CreateClientModal opened={creating} onClose={close} />
    </>
  )
}
