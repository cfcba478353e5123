// The active organization in the header; a switcher menu when the person belongs to several.
import { Button, Menu, Text } from '@mantine/core'
import { IconCheck, IconSelector } from '@tabler/icons-react'
import { useNavigate } from 'react-router'
import { useSwitchOrganization, type Me } from '../api/queries.ts'

export function OrgSwitcher({ me }: { me: Me }) {
  const switchOrg = useSwitchOrganization()
  const navigate = useNavigate()
  const name = me.organization.name || 'Organization'

  if (me.organizations.length < 2) {
    return (
      <Text size="sm" c="dimmed" visibleFrom="xs" ml="md" aria-label="Organization">
        {name}
      </Text>
    )
  }
  return (
    <Menu position="bottom-start" width={240} shadow="md">
      <Menu.Target>
        <Button variant="subtle" color="gray" ml="md" rightSection={<IconSelector size={14} />} loading={switchOrg.isPending} aria-label={`Organization: ${name}`}>
          {name}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Switch organization</Menu.Label>
        {me.organizations.map((org) => (
          <Menu.Item
            key={org.id}
            rightSection={org.id === me.organization.id ? <IconCheck size={14} /> : null}
            onClick={() => {
              if (org.id === me.organization.id) return
              switchOrg.mutate(org.id, { onSuccess: () => navigate('/') })
            }}
          >
            {org.name}
            <Text size="xs" c="dimmed">
              {org.role === 'admin' ? 'Administrator' : 'Member'}
            </Text>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
