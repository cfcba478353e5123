// The organization's members: who they are, their role (a select for administrators to change),
// when they joined, and Remove with confirmation. A refused change (the last administrator)
// shows above the table.
import { Alert, Avatar, Badge, Group, Select, Stack, Table, Text, VisuallyHidden } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useChangeRole, useRemoveMember, type Member, type Role } from '../../api/members.ts'
import { DayWithTime } from '../../components/DayWithTime.tsx'
import { ConfirmButton } from './ConfirmButton.tsx'
import { initials, ROLE_OPTIONS } from './memberText.ts'

function RemoveMemberButton({ member, organization }: { member: Member; organization: string }) {
  const remove = useRemoveMember()
  return (
    <ConfirmButton
      label="Remove"
      ariaLabel={`Remove ${member.name}`}
      title={`Remove ${member.name}?`}
      confirmLabel="Remove member"
      pending={remove.isPending}
      error={remove.error}
      onOpen={() => remove.reset()}
      onConfirm={(done) => remove.mutate(member.user_id, { onSuccess: done })}
    >
      {member.name} ({member.email}) loses access to {organization} at once: they are signed out here and their API tokens for it stop working. Records they
      own stay, without an owner. You can invite them again later.
    </ConfirmButton>
  )
}

function MemberRow({ member, isYou, organization, onRole, changing }: { member: Member; isYou: boolean; organization: string; onRole: (role: Role) => void; changing: boolean }) {
  return (
    <Table.Tr data-user-id={member.user_id}>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Avatar radius="xl" size={34} color={member.role === 'admin' ? 'indigo' : 'teal'}>
            {initials(member.name, member.email)}
          </Avatar>
          <Stack gap={0}>
            <Group gap={6}>
              <Text size="sm" fw={600}>
                {member.name}
              </Text>
              {isYou && (
                <Badge size="xs" variant="light" color="gray">
                  You
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {member.email}
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td w={200}>
        <Select
          size="xs"
          aria-label={`Role of ${member.name}`}
          data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          value={member.role}
          allowDeselect={false}
          disabled={changing}
          onChange={(value) => value && value !== member.role && onRole(value as Role)}
        />
      </Table.Td>
      <Table.Td>
        <DayWithTime value={member.joined_at} />
      </Table.Td>
      <Table.Td ta="right">
        <RemoveMemberButton member={member} organization={organization} />
      </Table.Td>
    </Table.Tr>
  )
}

export function MembersTable({ members, meId, organization }: { members: Member[]; meId: string | undefined; organization: string }) {
  const changeRole = useChangeRole()
  return (
    <>
      {changeRole.isError && (
        <Alert
          m="md"
          mb={0}
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="The role was not changed"
          withCloseButton
          onClose={() => changeRole.reset()}
          role="alert"
        >
          {changeRole.error instanceof Error ? changeRole.error.message : 'Something went wrong.'}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Joined</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <MemberRow
                key={m.user_id}
                member={m}
                isYou={m.user_id === meId}
                organization={organization}
                changing={changeRole.isPending && changeRole.variables?.userId === m.user_id}
                onRole={(role) => changeRole.mutate({ userId: m.user_id, role })}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  )
}
