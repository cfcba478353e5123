// Settings -> Members (/app/settings/members): the people of the organization with their roles,
// the open invitations, and "Invite people". Administrators only.
import { Badge, Button, Center, Group, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconMailPlus, IconUserPlus, IconUsers } from '@tabler/icons-react'
import { useState, type ReactNode } from 'react'
import { ApiError } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { useInvitations, useMembers, type CreatedInvitation } from '../../api/members.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'
import { PageHeader } from '../../components/PageHeader.tsx'
import { SettingsListPanel } from '../../components/SettingsListPanel.tsx'
import { InvitationsTable } from './InvitationsTable.tsx'
import { InviteModal } from './InviteModal.tsx'
import { MembersTable } from './MembersTable.tsx'

function SectionTitle({ children, count }: { children: ReactNode; count: number | undefined }) {
  return (
    <Group gap="xs" mb="xs">
      <Title order={4}>{children}</Title>
      {count !== undefined && (
        <Badge variant="light" color="gray" radius="sm">
          {count}
        </Badge>
      )}
    </Group>
  )
}

function MoreButton({ query, noun }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }; noun: string }) {
  if (!query.hasNextPage) return null
  return (
    <Center p="sm">
      <Button variant="subtle" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        Show more {noun}
      </Button>
    </Center>
  )
}

export function MembersPage() {
  const me = useMe()
  const isAdmin = me.data?.role === 'admin'
  const members = useMembers(isAdmin)
  const invitations = useInvitations(isAdmin)
  const [inviting, { open, close }] = useDisclosure(false)
  const [newLink, setNewLink] = useState<CreatedInvitation | null>(null)
  const organization = me.data?.organization.name || 'this organization'

  const refused = [members.error, invitations.error].some((e) => e instanceof ApiError && e.code === 'admin_required')
  if (!isAdmin || refused) {
    return (
      <>
        <PageHeader eyebrow="Settings" title="Members" />
        <AdminsOnly
          title="Only administrators can manage members"
          description={`Administrators of ${organization} invite people, change their roles and remove them. Ask one of them if someone needs access.`}
        />
      </>
    )
  }

  const memberList = members.data?.pages.flatMap((p) => p.data) ?? []
  const invitationList = invitations.data?.pages.flatMap((p) => p.data) ?? []
  const inviteButton = (
    <Button leftSection={<IconUserPlus size={16} />} onClick={open}>
      Invite people
    </Button>
  )

  return (
    <>
      <PageHeader eyebrow="Settings" title="Members" actions={inviteButton} />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        The people who work in {organization}. Administrators manage members, invitations and settings; members work with the records. Invitations
        are links that work once and expire after 7 days.
      </Text>
      <Stack gap="xl">
        <div>
          <SectionTitle count={members.data ? memberList.length : undefined}>People</SectionTitle>
          <SettingsListPanel
            query={members}
            noun="members"
            isEmpty={memberList.length === 0}
            empty={{ icon: <IconUsers size={26} />, title: 'No members', description: 'Invite the people who should work here.', action: inviteButton }}
          >
            <MembersTable members={memberList} meId={me.data?.user?.id} organization={organization} />
            <MoreButton query={members} noun="members" />
          </SettingsListPanel>
        </div>
        <div>
          <SectionTitle count={invitations.data ? invitationList.length : undefined}>Pending invitations</SectionTitle>
          <SettingsListPanel
            query={invitations}
            noun="invitations"
            isEmpty={invitationList.length === 0}
            empty={{
              icon: <IconMailPlus size={26} />,
              title: 'No pending invitations',
              description: 'Invite teammates by email. Each gets a link to create their account, or to join with the one they have.',
              action: (
                <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={open}>
                  Invite people
                </Button>
              ),
            }}
          >
            <InvitationsTable invitations={invitationList} onCreated={setNewLink} />
            <MoreButton query={invitations} noun="invitations" />
          </SettingsListPanel>
        </div>
      </Stack>
      <InviteModal opened={inviting} onClose={close} />
      <InviteModal opened={newLink !== null} onClose={() => setNewLink(null)} created={newLink} />
    </>
  )
}
