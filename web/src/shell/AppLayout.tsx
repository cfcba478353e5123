// The signed-in frame: header (organization, user menu), the navbar of record kinds, and the
// routed page. Waits for GET /me so every page can rely on the person and organization.
import { AppShell, Burger, Center, Group, Loader } from '@mantine/core'
import { useDisclosure, useHotkeys } from '@mantine/hooks'
import { Link, Outlet, useLocation, useMatches } from 'react-router'
import { useEffect } from 'react'
import { useMe } from '../api/queries.ts'
import { ErrorState } from '../components/ErrorState.tsx'
import { NavLinks } from './NavLinks.tsx'
import { OrgSwitcher } from './OrgSwitcher.tsx'
import { UserMenu } from './UserMenu.tsx'
import { BrandMark } from './BrandMark.tsx'
import { SearchPalette } from '../features/search/SearchPalette.tsx'
import { SearchButton } from '../features/search/SearchButton.tsx'

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure()
  const me = useMe()
  const location = useLocation()
  // Pages that need the whole width (the pipeline board's columns) say so in their route's handle.
  const fullWidth = useMatches().some((m) => (m.handle as { fullWidth?: boolean } | undefined)?.fullWidth)
  useEffect(() => close(), [location.pathname, close])
  const [searching, search] = useDisclosure()
  // Ctrl/Cmd-K opens the palette from anywhere, form fields included (it means nothing else there).
  useHotkeys([['mod+K', search.toggle]], [])

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to="/" style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Cairn home">
              <BrandMark />
            </Link>
            {me.data && <OrgSwitcher me={me.data} />}
          </Group>
          <Group gap="md" wrap="nowrap">
            {me.data && <SearchButton onClick={search.open} />}
            {me.data && <UserMenu me={me.data} />}
          </Group>
        </Group>
      </AppShell.Header>
      {me.data && <SearchPalette opened={searching} onClose={search.close} />}
      <AppShell.Navbar p="sm">
        <NavLinks />
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        {me.isPending ? (
          <Center h="50vh">
            <Loader aria-label="Loading" />
          </Center>
        ) : me.isError ? (
          <ErrorState title="Could not load your account" error={me.error} onRetry={() => void me.refetch()} />
        ) : (
          <div style={{ maxWidth: fullWidth ? undefined : 1200, margin: '0 auto' }}>
            <Outlet />
          </div>
        )}
      </AppShell.Main>
    </AppShell>
  )
}
