// The custom fields a list shows as extra columns when its URL chooses none, remembered per kind
// in this browser (lists/ColumnsMenu.tsx chooses columns now, in the URL).
import { useState } from 'react'

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
