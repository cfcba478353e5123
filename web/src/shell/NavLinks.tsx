// The navbar: the overview, one link per record kind, the event log and operations (with undo),
// and (administrators only) Migration and Settings, highlighting the current one.
import { NavLink, Stack, Text } from '@mantine/core'
import { IconApi, IconArrowBackUp, IconChartBar, IconForms, IconHistory, IconLayoutDashboard, IconLayoutKanban, IconTransfer, IconUsers, IconWebhook } from '@tabler/icons-react'
import { Link, useLocation } from 'react-router'
import { useMe } from '../api/queries.ts'
import { appKinds } from '../kinds.ts'

function SectionLabel({ children }: { children: string }) {
  return (
    <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
      {children}
    </Text>
  )
}

export function NavLinks() {
  const { pathname } = useLocation()
  const me = useMe()
  const [section = '', sub = ''] = pathname.split('/').slice(1)
  return (
    <Stack gap={2} component="nav" aria-label="Main">
      <NavLink component={Link} to="/" label="Overview" leftSection={<IconLayoutDashboard size={18} stroke={1.6} />} active={section === ''} />
      <NavLink component={Link} to="/pipeline" label="Pipeline" leftSection={<IconLayoutKanban size={18} stroke={1.6} />} active={section === 'pipeline'} />
      <NavLink component={Link} to="/reports" label="Reports" leftSection={<IconChartBar size={18} stroke={1.6} />} active={section === 'reports'} />
      <SectionLabel>Records</SectionLabel>
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
      <div role="group" aria-label="Data">
        <SectionLabel>Data</SectionLabel>
        <NavLink component={Link} to="/events" label="Event log" leftSection={<IconHistory size={18} stroke={1.6} />} active={section === 'events'} />
        <NavLink component={Link} to="/operations" label="Operations" leftSection={<IconArrowBackUp size={18} stroke={1.6} />} active={section === 'operations'} />
        {me.data?.role === 'admin' && (
          <NavLink component={Link} to="/migration" label="Migration" leftSection={<IconTransfer size={18} stroke={1.6} />} active={section === 'migration'} />
        )}
      </div>
      {me.data?.role === 'admin' && (
        <div role="group" aria-label="Settings">
          <SectionLabel>Settings</SectionLabel>
          <NavLink component={Link} to="/settings/members" label="Members" leftSection={<IconUsers size={18} stroke={1.6} />} active={section === 'settings' && sub === 'members'} />
          <NavLink component={Link} to="/settings/api" label="API" leftSection={<IconApi size={18} stroke={1.6} />} active={section === 'settings' && sub === 'api'} />
          <NavLink component={Link} to="/settings/fields" label="Fields" leftSection={<IconForms size={18} stroke={1.6} />} active={section === 'settings' && sub === 'fields'} />
          <NavLink component={Link} to="/settings/webhooks" label="Webhooks" leftSection={<IconWebhook size={18} stroke={1.6} />} active={section === 'settings' && sub === 'webhooks'} />
        </div>
      )}
    </Stack>
  )
}
