// Settings -> Webhooks (/app/settings/webhooks): the organization's webhook endpoints with their
// status and recent deliveries, and "Add webhook". Administrators only.
import { Anchor, Button, Code, List, Paper, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconPlus, IconWebhook } from '@tabler/icons-react'
import { ApiError } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { useWebhooks } from '../../api/webhooks.ts'
import { SettingsListPanel } from '../../components/SettingsListPanel.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { WebhookFormModal } from './WebhookFormModal.tsx'
import { WebhooksTable } from './WebhooksTable.tsx'
import { WebhooksAdminsOnly } from './WebhooksAdminsOnly.tsx'

function HowDeliveryWorks() {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={5} mb="xs">
        How deliveries work
      </Title>
      <List size="sm" spacing={4} c="dimmed">
        <List.Item>
          Each change is POSTed as JSON: <Code>{'{id, type, timestamp, organization_id, data: {object, previous}}'}</Code>.
        </List.Item>
        <List.Item>
          Signed endpoints get <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and <Code>webhook-signature</Code> headers; verify them with any{' '}
          <Anchor href="https://www.standardwebhooks.com" target="_blank" rel="noreferrer" size="sm">
            Standard Webhooks
          </Anchor>{' '}
          library.
        </List.Item>
        <List.Item>At least once: answer 2xx within 10 seconds. Failures are retried for about a day (5 s, 5 min, 30 min, 2 h, 5 h, 10 h); de-duplicate on webhook-id.</List.Item>
        <List.Item>Events arrive in any order, unless a webhook asks for them in order per record; a filter on the record sends only the events you need.</List.Item>
        <List.Item>Missed something? Replay past events to an endpoint from its page (events are kept for 30 days by default).</List.Item>
        <List.Item>An endpoint that fails for a day, or answers 410 Gone, is disabled; re-enable it from its page.</List.Item>
      </List>
    </Paper>
  )
}

export function WebhooksPage() {
  const me = useMe()
  const isAdmin = me.data?.role === 'admin'
  const webhooks = useWebhooks(isAdmin)
  const [creating, { open, close }] = useDisclosure(false)
  const organization = me.data?.organization.name || 'this organization'

  if (!isAdmin || (webhooks.error instanceof ApiError && webhooks.error.code === 'admin_required')) {
    return (
      <>
        <PageHeader eyebrow="Settings" title="Webhooks" />
        <WebhooksAdminsOnly />
      </>
    )
  }

  const list = webhooks.data?.data ?? []
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={open}>
      Add webhook
    </Button>
  )
  return (
    <>
      <PageHeader eyebrow="Settings" title="Webhooks" actions={list.length > 0 ? addButton : null} />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        Webhooks tell your other systems the moment something changes in {organization}: a new lead, a stage change, an escalated case. Cairn sends
        each event to the endpoints that subscribe to it, signed, and retries until they answer.
      </Text>
      <Stack gap="lg">
        <SettingsListPanel
          query={webhooks}
          noun="webhooks"
          isEmpty={list.length === 0}
          empty={{
            icon: <IconWebhook size={26} />,
            title: 'No webhooks yet',
            description: 'Add an endpoint and choose the events it should receive. You can send it a test event right away.',
            action: addButton,
          }}
        >
          <WebhooksTable webhooks={list} />
        </SettingsListPanel>
        <HowDeliveryWorks />
      </Stack>
      <WebhookFormModal opened={creating} onClose={close} />
    </>
  )
}
