// A table header that sorts its column: click for ascending, again for descending, a third time
// for the list's default order. aria-sort tells assistive technology which way it is sorted.
import { Group, Table, Text, UnstyledButton } from '@mantine/core'
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { nextSort } from './listUrlState.ts'

export interface SortControl {
  sort: string
  /** Fields the caller may sort by. */
  sortable: Set<string>
  onSort: (sort: string) => void
}

export function SortableTh({ field, control, children }: { field: string | undefined; control?: SortControl; children: ReactNode }) {
  if (!control || !field || !control.sortable.has(field)) return <Table.Th>{children}</Table.Th>
  const direction = control.sort === field ? 'ascending' : control.sort === `-${field}` ? 'descending' : undefined
  const Icon = direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconSelector
  return (
    <Table.Th aria-sort={direction ?? 'none'} p={0}>
      <UnstyledButton
        onClick={() => control.onSort(nextSort(control.sort, field))}
        px="md"
        py="sm"
        w="100%"
        title={direction === 'ascending' ? 'Sorted ascending; click for descending' : direction === 'descending' ? 'Sorted descending; click for the default order' : 'Sort'}
      >
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm" c={direction ? undefined : 'inherit'}>
            {children}
          </Text>
          <Icon size={14} stroke={1.8} color={direction ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-dimmed)'} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  )
}
