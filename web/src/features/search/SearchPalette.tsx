// The command palette: Ctrl/Cmd-K (or the header's search button) opens it anywhere in the app; it
// finds records of every kind by name, email, domain or case number (GET /api/v1/search, debounced,
// through the typed client), grouped by kind, with arrow keys to move and Enter to open the record.
import { Center, Group, Kbd, Loader, Modal, ScrollArea, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState, type KeyboardEvent } from 'react'
import { useNavigate } from 'react-router'
import { searchRecords, type SearchHit } from '../../api/search.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { appKinds } from '../../kinds.ts'
import { groupByKind, optionId, SearchResults } from './SearchResults.tsx'

const DEBOUNCE_MS = 200

function Hint({ children }: { children: React.ReactNode }) {
  return (
    <Text size="sm" c="dimmed" ta="center" py="lg" px="md">
      {children}
    </Text>
  )
}

export function SearchPalette({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [activeIndex, setActiveIndex] = useState(0)
  const [debounced] = useDebouncedValue(query.trim(), DEBOUNCE_MS)
  const navigate = useNavigate()
  const results = useQuery({
    queryKey: ['search', debounced],
    queryFn: () => searchRecords(debounced),
    enabled: opened && debounced !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  })
  const groups = useMemo(() => groupByKind(results.data ?? []), [results.data])
  const ordered = useMemo(() => groups.flatMap((g) => g.hits), [groups])
  const active: SearchHit | undefined = ordered[Math.min(activeIndex, ordered.length - 1)]
  // New results: the best one is active again, so Enter opens it.
  useEffect(() => setActiveIndex(0), [results.data])

  const close = () => {
    onClose()
    setQuery('')
  }
  const open = (hit: SearchHit) => {
    const ui = appKinds.find((k) => k.kind.name === hit.kind)
    close()
    if (ui) void navigate(`/${ui.kind.path}/${hit.id}`)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing || ordered.length === 0) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActiveIndex((i) => (Math.min(i, ordered.length - 1) + step + ordered.length) % ordered.length)
    } else if (event.key === 'Enter' && active) {
      event.preventDefault()
      open(active)
    }
  }

  const typing = query.trim() !== debounced || results.isFetching
  let body: React.ReactNode
  if (query.trim() === '') body = <Hint>Find any record by name, email, domain or case number.</Hint>
  else if (results.isError) body = <ErrorState title="Search failed" error={results.error} onRetry={() => void results.refetch()} />
  else if (ordered.length > 0) body = <SearchResults groups={groups} active={active} onHover={(hit) => setActiveIndex(ordered.indexOf(hit))} onOpen={open} />
  else if (typing || !results.data)
    body = (
      <Center py="lg">
        <Loader size="sm" aria-label="Searching" />
      </Center>
    )
  else body = <Hint>No records match “{query.trim()}”.</Hint>

  return (
    <Modal opened={opened} onClose={close} withCloseButton={false} size="lg" yOffset="10vh" padding={0} radius="lg" aria-label="Search records">
      <TextInput
        data-autofocus
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        placeholder="Search records…"
        aria-label="Search records"
        role="combobox"
        aria-expanded={ordered.length > 0}
        aria-controls="search-results"
        aria-activedescendant={active ? optionId(active) : undefined}
        leftSection={<IconSearch size={18} stroke={1.6} />}
        rightSection={typing && ordered.length > 0 ? <Loader size={14} aria-label="Searching" /> : null}
        size="lg"
        variant="unstyled"
        px="md"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      />
      <ScrollArea.Autosize mah="60vh" p="xs">
        {body}
      </ScrollArea.Autosize>
      <Group gap="lg" px="md" py={8} style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Enter</Kbd> to open
        </Text>
        <Text size="xs" c="dimmed">
          <Kbd size="xs">Esc</Kbd> to close
        </Text>
      </Group>
    </Modal>
  )
}
