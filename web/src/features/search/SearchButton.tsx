// The header's way into the palette, for those who do not know the shortcut: looks like a search field.
import { Group, Kbd, Text, UnstyledButton } from '@mantine/core'
import { useOs } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'

export function SearchButton({ onClick }: { onClick: () => void }) {
  const os = useOs()
  const mod = os === 'macos' || os === 'ios' ? '⌘' : 'Ctrl'
  return (
    <UnstyledButton
      onClick={onClick}
      aria-label="Search records"
      aria-keyshortcuts={mod === '⌘' ? 'Meta+K' : 'Control+K'}
      px="sm"
      h={36}
      w={{ base: 40, sm: 280 }}
      style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-gray-0)' }}
    >
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Group gap={8} wrap="nowrap">
          <IconSearch size={16} stroke={1.6} color="var(--mantine-color-gray-6)" />
          <Text size="sm" c="dimmed" visibleFrom="sm">
            Search records…
          </Text>
        </Group>
        <Group gap={4} wrap="nowrap" visibleFrom="sm">
          <Kbd size="xs">{mod}</Kbd>
          <Kbd size="xs">K</Kbd>
        </Group>
      </Group>
    </UnstyledButton>
  )
}
