// Saved views of a list or of the pipeline board: a menu with the person's own views and the
// organization's shared ones, "Save as new view" (name, shared or private), and, on a view one may
// change, saving the current filters and columns into it or deleting it (docs/views.md). A view is
// applied by putting its filters, sort and columns in the URL with its id (`view=`).
import { Alert, Badge, Button, Group, Menu, Modal, Stack, Switch, Text, TextInput } from '@mantine/core'
import { IconChevronDown, IconDeviceFloppy, IconLayoutList, IconLock, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useMe } from '../../api/queries.ts'
import { useViewMutations, useViews, type SavedView, type ViewKind } from '../../api/views.ts'

/** URL parameters that are not a list's filters. */
const NOT_FILTERS = new Set(['view', 'sort', 'columns', 'cursor'])

/** What the URL shows now, as a view's content. */
export function currentContent(params: URLSearchParams, withSort: boolean): { filters: Record<string, string>; sort: string | null; columns: string[] } {
  const filters: Record<string, string> = {}
  for (const [k, v] of params) if (!NOT_FILTERS.has(k) && v) filters[k] = v
  const columns = params.get('columns')
  return { filters, sort: withSort ? params.get('sort') || null : null, columns: columns ? columns.split(',').filter(Boolean) : [] }
}

export function viewParams(view: Pick<SavedView, 'id' | 'filters' | 'sort' | 'columns'>): URLSearchParams {
  const next = new URLSearchParams(view.filters)
  if (view.sort) next.set('sort', view.sort)
  if (view.columns.length > 0) next.set('columns', view.columns.join(','))
  next.set('view', view.id)
  return next
}

interface Props {
  kind: ViewKind
  /** What "no view" is called: "All accounts", "Whole pipeline". */
  allLabel: string
  withSort?: boolean
}

export function ViewSwitcher({ kind, allLabel, withSort = true }: Props) {
  const [params, setParams] = useSearchParams()
  const me = useMe()
  const views = useViews(kind)
  const { create, update, remove } = useViewMutations(kind)
  const [saving, setSaving] = useState(false)
  const [name, setName] = useState('')
  const [shared, setShared] = useState(false)
  const list = views.data ?? []
  const current = list.find((v) => v.id === params.get('view')) ?? null
  const mayChange = current && (current.mine || (current.shared && me.data?.role === 'admin'))
  const mine = list.filter((v) => v.mine)
  const others = list.filter((v) => !v.mine)
  const content = currentContent(params, withSort)

  const apply = (view: SavedView | null) => setParams(view ? viewParams(view) : new URLSearchParams(), { state: {} })
  const saveNew = () =>
    create.mutate(
      { kind, name: name.trim(), shared, ...content },
      {
        onSuccess: (view) => {
          setSaving(false)
          apply(view)
        },
      },
    )
  const item = (v: SavedView) => (
    <Menu.Item key={v.id} onClick={() => apply(v)} leftSection={v.shared ? <IconUsers size={16} /> : <IconLock size={16} />} fw={v.id === current?.id ? 600 : undefined} aria-current={v.id === current?.id || undefined}>
      {v.name}
    </Menu.Item>
  )

  return (
    <>
      <Group gap="xs" wrap="nowrap">
        <Menu position="bottom-start" shadow="md" width={280}>
          <Menu.Target>
            <Button variant="light" leftSection={<IconLayoutList size={16} />} rightSection={<IconChevronDown size={14} />} aria-label={`View: ${current?.name ?? allLabel}`}>
              {current?.name ?? allLabel}
            </Button>
          </Menu.Target>
          <Menu.Dropdown mah={460} style={{ overflowY: 'auto' }}>
            <Menu.Item onClick={() => apply(null)} fw={current ? undefined : 600}>
              {allLabel}
            </Menu.Item>
            <Menu.Label>My views</Menu.Label>
            {mine.length > 0 ? mine.map(item) : <Text size="xs" c="dimmed" px="sm" pb={6}>None yet: set filters, then save them as a view.</Text>}
            <Menu.Label>Shared with the organization</Menu.Label>
            {others.length > 0 ? others.map(item) : <Text size="xs" c="dimmed" px="sm" pb={6}>No shared views.</Text>}
            <Menu.Divider />
            <Menu.Item leftSection={<IconPlus size={16} />} onClick={() => { setName(''); setShared(false); setSaving(true) }}>
              Save as new view…
            </Menu.Item>
            {current && mayChange && (
              <>
                <Menu.Item leftSection={<IconDeviceFloppy size={16} />} onClick={() => update.mutate({ id: current.id, ...content })}>
                  Save changes to “{current.name}”
                </Menu.Item>
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => remove.mutate(current.id, { onSuccess: () => apply(null) })}>
                  Delete “{current.name}”
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
        {current?.shared && (
          <Badge variant="light" color="gray" leftSection={<IconUsers size={12} />}>
            Shared
          </Badge>
        )}
      </Group>
      <Modal opened={saving} onClose={() => setSaving(false)} title="Save view" centered>
        <form onSubmit={(e) => { e.preventDefault(); if (name.trim()) saveNew() }}>
          <Stack gap="md">
            <TextInput label="Name" placeholder="e.g. My open deals" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={120} data-autofocus required />
            <Switch label="Share with everyone in the organization" description="Shared views appear in everyone's list; only you (and administrators) can change them." checked={shared} onChange={(e) => setShared(e.currentTarget.checked)} />
            <Text size="sm" c="dimmed">
              Saves the current {Object.keys(content.filters).length} filter{Object.keys(content.filters).length === 1 ? '' : 's'}
              {withSort ? ', sort and columns' : ''}.
            </Text>
            {create.isError && <Alert color="red" variant="light">{create.error.message}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSaving(false)}>Cancel</Button>
              <Button type="submit" loading={create.isPending} disabled={!name.trim()}>Save view</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  )
}
