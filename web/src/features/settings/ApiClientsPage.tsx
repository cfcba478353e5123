// Settings -> API (/app/settings/api): the organization's OAuth clients for integrations, with
// create (secret shown once), revoke, and the endpoints integrators need. Administrators only.
import { Button, EmptyState, Paper, Skeleton, Stack, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconApi, IconLock, IconPlus } from '@tabler/icons-react'
import { Link } from 'react-router'
import { ApiError } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { useApiClients } from '../../api/settings.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { ApiClientsTable } from './ApiClientsTable.tsx'
import { CreateClientModal } from './CreateClientModal.tsx'
import { IntegrationEndpoints } from './IntegrationEndpoints.tsx'

function AdminsOnly({ organization }: { organization: string }) {
  return (
    <EmptyState
      mt="xl"
      icon={<IconLock size={26} />}
      withIndicatorBackground
      title="Only administrators can manage API clients"
      description={`API clients give integrations access to the data of ${organization}, so only its administrators can see, create or revoke them. Ask an administrator if you need one.`}
    >
      <EmptyState.Actions>
        <Button component={Link} to="/" variant="light">
          Go to overview
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}

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
        <AdminsOnly organization={organization} />
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
        <Paper withBorder radius="md" shadow="xs">
          {clients.isPending ? (
            <Stack p="md" gap="sm" aria-busy="true" aria-label="Loading API clients">
              <Skeleton height={14} width="40%" />
              <Skeleton height={14} />
              <Skeleton height={14} />
            </Stack>
          ) : clients.isError ? (
            <div style={{ padding: 16 }}>
              <ErrorState title="Could not load API clients" error={clients.error} onRetry={() => void clients.refetch()} />
            </div>
          ) : list.length === 0 ? (
            <EmptyState
              py={56}
              icon={<IconApi size={26} />}
              variant="light"
              title="No API clients yet"
              description="Create a client for each integration that should reach your CRM data. You choose what it may do; people approve it when they connect."
            >
              <EmptyState.Actions>{createButton}</EmptyState.Actions>
            </EmptyState>
          ) : (
            <ApiClientsTable clients={list} />
          )}
        </Paper>
        <IntegrationEndpoints />
      </Stack>
      <CreateClientModal opened={creating} onClose={close} />
    </>
  )
}
