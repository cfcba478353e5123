// Shown right after an invitation is created: whether it was emailed, and its link to copy (the
// only time the link is shown; a new link can be made from the list at any time).
import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconInfoCircle, IconMailCheck } from '@tabler/icons-react'
import type { CreatedInvitation } from '../../api/members.ts'
import { CopyableValue } from '../../components/CopyableValue.tsx'
import { formatDay } from '../../components/time.ts'
import { roleLabel } from './memberText.ts'

function Delivery({ invitation }: { invitation: CreatedInvitation }) {
  if (invitation.email_status === 'sent') {
    return (
      <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />} title={`Invitation emailed to ${invitation.email}`}>
        You can also copy the link below and send it another way.
      </Alert>
    )
  }
  if (invitation.email_status === 'failed') {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The email could not be sent">
        <Text size="sm" ff="monospace" mb={6}>
          {invitation.email_error ?? 'The mail server refused it.'}
        </Text>
        The invitation is ready all the same: copy the link and send it to {invitation.email}.
      </Alert>
    )
  }
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title="Send this link to your teammate">
      Email is not set up on this server, so Cairn did not send anything. Copy the link and share it with {invitation.email} over chat or email.
    </Alert>
  )
}

export function InvitationLinkReveal({ invitation, onDone }: { invitation: CreatedInvitation; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text size="sm">
        <strong>{invitation.email}</strong> is invited as {roleLabel(invitation.role).toLowerCase()}.
      </Text>
      <Delivery invitation={invitation} />
      <CopyableValue label="Invitation link" value={invitation.invitation_url} />
      <Text size="xs" c="dimmed">
        The link works once and expires on {formatDay(invitation.expires_at)}. Anyone with it can join as {invitation.email}, so share it only with them. It is
        not shown again; make a new link from the list if needed.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  )
}
