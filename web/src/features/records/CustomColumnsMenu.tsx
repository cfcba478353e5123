// "Columns": which custom fields a list shows as extra columns, remembered per kind in this browser.
import { Button, Menu } from '@mantine/core'
import { IconColumns, IconSquare, IconSquareCheckFilled } from '@tabler/icons-react'
import { useState } from 'react'
import type { CustomField } from '../../api/customFields.ts'

const storageKey = (kind: string) => `cairn.list-columns.${kind}`

/** The chosen column names of a kind (a stale name of a deleted field is simply not shown). */
export function useCustomColumns(kind: string): [string[], (names: string[]) => void] {
  const [names, setNames] = useState<string[]>(() => {
    try {
      const stored = JSON.parse(window.localStorage.getItem(storageKey(kind)) ?? '[]')
      return Array.isArray(stored) ? stored.filter((n): n is string => typeof n === 'string') : []
    } catch {
      return []
    }
  })
  const save = (next: string[]) => {
    setNames(next)
    window.localStorage.setItem(storageKey(kind), JSON.stringify(next))
  }
  return [names, save]
}

export function CustomColumnsMenu({ defs, shown, onChange }: { defs: readonly CustomField[]; shown: string[]; onChange: (names: string[]) => void }) {
  if (defs.length === 0) return null
  return (
    <Menu closeOnItemClick={false} position="bottom-end" shadow="md" width={240}>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Custom fields</Menu.Label>
        {defs.map((d) => (
          <Menu.Item
            key={d.id}
            aria-checked={shown.includes(d.name)}
            leftSection={shown.includes(d.name) ? <IconSquareCheckFilled size={18} color="var(--mantine-primary-color-filled)" /> : <IconSquare size={18} color="var(--mantine-color-dimmed)" />}
            onClick={() => onChange(shown.includes(d.name) ? shown.filter((n) => n !== d.name) : [...shown, d.name])}
          >
            {d.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  )
}
