// The list page's view and its changes, kept in the URL so a link shares it and Back undoes it.
// Paging pushes the cursor it came from onto a stack in the history entry's state: "Previous"
// pops it. A link opened fresh has no stack, so its Previous goes to the first page.
import { useLocation, useSearchParams } from 'react-router'
import type { RecordKind } from '../../kinds.ts'
import { readView, type ListView } from './listUrlState.ts'

interface PagingState {
  cursors?: string[]
}

export interface ListViewControls {
  view: ListView
  /** Index of the page shown (0: first), or null when opened at a cursor without its history. */
  pageIndex: number | null
  setQuery: (q: string) => void
  setParam: (name: string, value: string | null) => void
  setParams: (values: Record<string, string | null>) => void
  setSort: (sort: string) => void
  clear: () => void
  next: (cursor: string) => void
  previous: () => void
}

export function useListView(kind: RecordKind): ListViewControls {
  const [params, setSearchParams] = useSearchParams()
  const location = useLocation()
  const view = readView(kind, params)
  const stack = (location.state as PagingState | null)?.cursors ?? []

  // Any change to what the list shows starts again at its first page.
  const change = (edit: (next: URLSearchParams) => void, opts: { replace?: boolean; state?: PagingState } = {}) => {
    const next = new URLSearchParams(params)
    next.delete('cursor')
    edit(next)
    setSearchParams(next, { replace: opts.replace, state: opts.state ?? {}, preventScrollReset: true })
  }
  const setAll = (values: Record<string, string | null>) =>
    change((next) => {
      for (const [name, value] of Object.entries(values)) {
        if (value) next.set(name, value)
        else next.delete(name)
      }
    })

  return {
    view,
    pageIndex: view.cursor ? (stack.length > 0 ? stack.length : null) : 0,
    // Typing refines one search: it replaces the entry instead of filling the history.
    setQuery: (q) => change((next) => (q ? next.set('q', q) : next.delete('q')), { replace: true }),
    setParam: (name, value) => setAll({ [name]: value }),
    setParams: setAll,
    setSort: (sort) => setAll({ sort: sort || null }),
    clear: () => setSearchParams(new URLSearchParams(), { state: {} }),
    next: (cursor) => change((next) => next.set('cursor', cursor), { state: { cursors: [...stack, view.cursor ?? ''] } }),
    previous: () => {
      const back = stack.at(-1)
      change((next) => (back ? next.set('cursor', back) : undefined), { state: { cursors: stack.slice(0, -1) } })
    },
  }
}
