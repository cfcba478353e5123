// Step 1 for a new migration: choose sandbox or production and go through the source platform's
// consent, which comes back to the new migration's wizard (or here, with ?connect_error=). When the
// operator has not set up OAuth to the source (409), the access-token form is the way in.
import { Alert, Anchor, Button, Collapse, Divider, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconInfoCircle, IconPlugConnected } from '@tabler/icons-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { ApiError } from '../../../api/client.ts'
import { useConnectSource, type SourceEnvironment } from '../../../api/migration.ts'
import { ErrorState } from '../../../components/ErrorState.tsx'
import { ENVIRONMENT_LABEL } from '../migrationText.ts'
import { EnvironmentChoice } from './EnvironmentChoice.tsx'
import { TokenForm } from './TokenForm.tsx'

function ConnectErrorAlert({ message, onClose }: { message: string; onClose: () => void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The connection did not go through" withCloseButton onClose={onClose} role="alert">
      {message}
    </Alert>
  )
}

export function ConnectStep() {
  const [params, setParams] = useSearchParams()
  const connectError = params.get('connect_error')
  const [environment, setEnvironment] = useState<SourceEnvironment>('sandbox')
  const connect = useConnectSource()
  const notSetUp = connect.error instanceof ApiError && connect.error.status === 409
  const [tokenOpen, setTokenOpen] = useState(false)
  const showToken = tokenOpen || notSetUp

  const start = () => connect.mutate(environment, { onSuccess: ({ authorize_url }) => window.location.assign(authorize_url) })

  return (
    <Stack gap="lg">
      {connectError && <ConnectErrorAlert message={connectError} onClose={() => setParams({}, { replace: true })} />}
      <EnvironmentChoice value={environment} onChange={setEnvironment} />
      <Stack gap="xs" align="flex-start">
        <Button size="md" leftSection={<IconPlugConnected size={18} />} onClick={start} loading={connect.isPending || connect.isSuccess} disabled={notSetUp}>
          Connect to Salesforce {ENVIRONMENT_LABEL[environment].toLowerCase()}
        </Button>
        <Text size="xs" c="dimmed">
          You sign in at Salesforce and allow Cairn to read your data; you come back here and the analysis starts by itself.
        </Text>
      </Stack>
      {notSetUp ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title="Signing in to Salesforce is not set up on this Cairn service">
          Connecting through Salesforce&apos;s consent page needs a connected app that the service operator configures (SOURCE_CLIENT_ID and
          SOURCE_CLIENT_SECRET). Until then, connect with an access token below.
        </Alert>
      ) : (
        connect.isError && <ErrorState title="Could not start the connection" error={connect.error} />
      )}
      <Divider />
      <Stack gap="sm">
        {notSetUp ? (
          <Text fw={600}>Use an access token</Text>
        ) : (
          <Anchor component="button" type="button" fw={600} onClick={() => setTokenOpen((o) => !o)} aria-expanded={showToken}>
            <Group gap={4}>
              {showToken ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              Use an access token instead
            </Group>
          </Anchor>
        )}
        <Collapse expanded={showToken}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed" maw={720}>
              For orgs where a connected app is not an option: paste the instance URL and a token of a user who can read the objects to migrate
              (for example from <code>sf org display</code>).
            </Text>
            <TokenForm environment={environment} />
          </Stack>
        </Collapse>
      </Stack>
    </Stack>
  )
}
