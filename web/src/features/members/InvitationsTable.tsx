// Open invitations: the address, role, who invited and when, when the link expires, what became
// of the email; "New link" (replaces the link, and emails it again when email is set up) and
// Revoke with confirmation.
import { Badge, Button, Group, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core'
import { IconLink } from '@tabler/icons-react'
import { useInvite, useRevokeInvitation, type CreatedInvitation, type Invitation } from '../../api/members.ts'
import { formatDateTime } from '../../kinds.ts'
import { timeAgo } from '../../components/time.ts'
import { ConfirmButton } from './ConfirmButton.tsx'
import { emailStatusText, roleLabel } from './memberText.ts'

function RevokeInvitationButton({ invitation }: { invitation: Invitation }) {
  const revoke = useRevokeInvitation()
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={`Revoke the invitation of ${invitation.email}`}
      title={`Revoke the invitation of ${invitation.email}?`}
      confirmLabel="Revoke invitation"
      pending={revoke.isPending}
      error={revoke.error}
      onOpen={() => revoke.reset()}
      onConfirm={(done) => revoke.mutate(invitation.id, { onSuccess: done })}
    >
      The link stops working at once; opening it shows that the invitation was withdrawn. You can invite {invitation.email} again later.
    </ConfirmButton>
  )
}

function NewLinkButton({ invitation, onCreated }: { invitation: Invitation; onCreated: (c: CreatedInvitation) => void }) {
  const invite = useInvite()
  return (
    <Tooltip label={invite.error instanceof Error ? invite.error.message : 'Links are shown once. This makes a new one (the old link stops working) and emails it again when email is set up.'} multiline w={280} withArrow>
      <Button
        size="xs"
        variant="light"
        color={invite.isError ? 'red' : undefined}
        leftSection={<IconLink size={14} />}
        loading={invite.isPending}
        aria-label={`New link for ${invitation.email}`}
        onClick={() => invite.mutate({ email: invitation.email, role: invitation.role }, { onSuccess: onCreated })}
      >
        New link
      </Button>
    </Tooltip>
  )
}

function InvitationRow({ invitation, onCreated }: { invitation: Invitation; onCreated: (c: CreatedInvitation) => void }) {
  const email = emailStatusText(invitation)
  const expired = invitation.status === 'expired'
  return (
    <Table.Tr data-invitation-id={invitation.id}>
      <Table.Td>
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {invitation.email}
          </Text>
          <Text size="xs" c="dimmed">
            {invitation.invited_by ? `Invited by ${invitation.invited_by.name}` : 'Invited'} {timeAgo(invitation.created_at)}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={invitation.role === 'admin' ? 'indigo' : 'gray'} radius="sm">
          {roleLabel(invitation.role)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Tooltip label={formatDateTime(invitation.expires_at)} withArrow>
          {expired ? (
            <Badge color="red" variant="outline" radius="sm">
              Expired
            </Badge>
          ) : (
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {timeAgo(invitation.expires_at).replace(/^in /, 'In ')}
            </Text>
          )}
        </Tooltip>
      </Table.Td>
      <Table.Td>
        <Tooltip label={email.hint} multiline w={280} withArrow>
          <Badge color={email.color} variant="dot" radius="sm">
            {email.label}
          </Badge>
        </Tooltip>
      </Table.Td>
      <Table.Td ta="right">
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <NewLinkButton invitation={invitation} onCreated={onCreated} />
          <RevokeInvitationButton invitation={invitation} />
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

export function InvitationsTable({ invitations, onCreated }: { invitations: Invitation[]; onCreated: (c: CreatedInvitation) => void }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Pending invitations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Delivery</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((i) => (
            <InvitationRow key={i.id} invitation={i} onCreated={onCreated} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
