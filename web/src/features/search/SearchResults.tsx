// The palette's results: grouped by kind in the navigation's order, each group keeping the server's
// ranking; one option is active (arrow keys or the pointer move it) and is opened with Enter or a click.
import { Group, Stack, Text, UnstyledButton } from '@mantine/core'
import type { SearchHit } from '../../api/search.ts'
import { appKinds } from '../../kinds.ts'

export interface ResultGroup {
  ui: (typeof appKinds)[number]
  hits: SearchHit[]
}

/** Hits grouped by kind; the flat order of the groups' hits is the keyboard's order. */
export function groupByKind(hits: SearchHit[]): ResultGroup[] {
  return appKinds.map((ui) => ({ ui, hits: hits.filter((h) => h.kind === ui.kind.name) })).filter((g) => g.hits.length > 0)
}

export const optionId = (hit: SearchHit) => `search-option-${hit.id}`

export function SearchResults(props: { groups: ResultGroup[]; active: SearchHit | undefined; onHover: (hit: SearchHit) => void; onOpen: (hit: SearchHit) => void }) {
  const { groups, active, onHover, onOpen } = props
  return (
    <Stack gap="sm" role="listbox" id="search-results" aria-label="Search results">
      {groups.map(({ ui, hits }) => (
        <div key={ui.kind.name} role="group" aria-label={ui.kind.labelPlural}>
          <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pb={4}>
            {ui.kind.labelPlural}
          </Text>
          {hits.map((hit) => {
            const selected = hit.id === active?.id
            return (
              <UnstyledButton
                key={hit.id}
                id={optionId(hit)}
                role="option"
                aria-selected={selected}
                tabIndex={-1}
                onMouseMove={() => !selected && onHover(hit)}
                onClick={() => onOpen(hit)}
                w="100%"
                px="sm"
                py={8}
                style={{ borderRadius: 'var(--mantine-radius-md)', background: selected ? 'var(--mantine-color-teal-light)' : undefined }}
              >
                <Group gap="sm" wrap="nowrap">
                  <ui.icon size={20} stroke={1.6} color={selected ? 'var(--mantine-color-teal-7)' : 'var(--mantine-color-gray-6)'} />
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate>
                      {hit.title || `Untitled ${ui.kind.label.toLowerCase()}`}
                    </Text>
                    {hit.subtitle && (
                      <Text size="xs" c="dimmed" truncate>
                        {hit.subtitle}
                      </Text>
                    )}
                  </div>
                </Group>
              </UnstyledButton>
            )
          })}
        </div>
      ))}
    </Stack>
  )
}
