// The navbar: the overview and one link per record kind, highlighting the current one.
import { NavLink, Stack, Text } from '@mantine/core'
import { IconLayoutDashboard } from '@tabler/icons-react'
import { Link, useLocation } from 'react-router'
import { appKinds } from '../kinds.ts'

export function NavLinks() {
  const { pathname } = useLocation()
  const section = pathname.split('/')[1] ?? ''
  return (
    <Stack gap={2} component="nav" aria-label="Main">
      <NavLink component={Link} to="/" label="Overview" leftSection={<IconLayoutDashboard size={18} stroke={1.6} />} active={section === ''} />
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
        Records
      </Text>
      {appKinds.map(({ kind, icon: Icon }) => (
        <NavLink
          key={kind.path}
          component={Link}
          to={`/${kind.path}`}
          label={kind.labelPlural}
          leftSection={<Icon size={18} stroke={1.6} />}
          active={section === kind.path}
        />
      ))}
    </Stack>
  )
}
