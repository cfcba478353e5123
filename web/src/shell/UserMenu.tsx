// The signed-in person in the header: name, email, role and Sign out (a plain form POST).
import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core'
import { IconChevronDown, IconLogout } from '@tabler/icons-react'
import { useRef } from 'react'
import type { Me } from '../api/queries.ts'

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('')
}

export function UserMenu({ me }: { me: Me }) {
  const form = useRef<HTMLFormElement>(null)
  const name = me.user?.name ?? 'API client'
  const email = me.user?.email ?? ''
  return (
    <>
      <form ref={form} method="post" action="/sign-out" hidden />
      <Menu position="bottom-end" width={240} shadow="md">
        <Menu.Target>
          <UnstyledButton aria-label="User menu">
            <Group gap="xs" wrap="nowrap">
              <Avatar color="teal" radius="xl" size={32}>
                {initials(name)}
              </Avatar>
              <div style={{ lineHeight: 1.2 }}>
                <Text size="sm" fw={500} visibleFrom="xs">
                  {name}
                </Text>
                <Text size="xs" c="dimmed" visibleFrom="xs">
                  {email}
                </Text>
              </div>
              <IconChevronDown size={14} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            {me.organization.name} · {me.role === 'admin' ? 'Administrator' : 'Member'}
          </Menu.Label>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => form.current?.submit()}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  )
}
