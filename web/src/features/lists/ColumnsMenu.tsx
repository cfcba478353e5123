// "Columns": which fields a list shows after its title, built-in and custom, in the order chosen.
// The choice rides in the URL (`columns=stage,amount,custom_fields.region`), so a saved view keeps
// it and a link shares it; without it the kind's default columns show, with the custom ones this
// browser remembered.
import { Button, Menu } from '@mantine/core'
import { IconColumns, IconSquare, IconSquareCheckFilled } from '@tabler/icons-react'
import type { CustomField } from '../../api/customFields.ts'
import type { RecordKind } from '../../kinds.ts'

export const CUSTOM_PREFIX = 'custom_fields.'

/** Built-in fields a column can show: all but the title, long text and what the table always shows. */
function columnFields(kind: RecordKind) {
  return kind.fields.filter((f) => !kind.titleFields.includes(f.name) && f.type !== 'text' && f.name !== 'last_name' && f.name !== 'first_name')
}

interface Props {
  kind: RecordKind
  defs: readonly CustomField[]
  shown: string[]
  onChange: (names: string[]) => void
}

export function ColumnsMenu({ kind, defs, shown, onChange }: Props) {
  const toggle = (name: string) => onChange(shown.includes(name) ? shown.filter((n) => n !== name) : [...shown, name])
  const item = (name: string, label: string) => (
    <Menu.Item
      key={name}
      aria-checked={shown.includes(name)}
      leftSection={shown.includes(name) ? <IconSquareCheckFilled size={18} color="var(--mantine-primary-color-filled)" /> : <IconSquare size={18} color="var(--mantine-color-dimmed)" />}
      onClick={() => toggle(name)}
    >
      {label}
    </Menu.Item>
  )
  return (
    <Menu closeOnItemClick={false} position="bottom-end" shadow="md" width={260}>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={420} style={{ overflowY: 'auto' }}>
        <Menu.Label>Fields</Menu.Label>
        {columnFields(kind).map((f) => item(f.name, f.label))}
        {defs.length > 0 && <Menu.Label>Custom fields</Menu.Label>}
        {defs.map((d) => item(`${CUSTOM_PREFIX}${d.name}`, d.label))}
      </Menu.Dropdown>
    </Menu>
  )
}
