// A record's custom fields on its page: the organization's defined fields under their labels, typed
// (dates, yes/no, numbers), then any other keys kept from imports, under their source names.
import { Badge, Paper, SimpleGrid, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'
import { useCustomFields, type CustomField } from '../../api/customFields.ts'
import { formatDate, type KindName } from '../../kinds.ts'

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={500} mb={2}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  )
}

/** A stored value as text: objects and arrays (kept from imports) as their JSON, never "[object Object]". */
export function storedValueText(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** A defined field's value as text; a value that no longer fits its definition is shown as stored. */
export function customValueText(def: CustomField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (def.type === 'boolean' && typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (def.type === 'date' && typeof value === 'string') return formatDate(value)
  if (def.type === 'number' && typeof value === 'number') return value.toLocaleString()
  return storedValueText(value)
}

/** `inline`: inside a line of text (the timeline), not a block of its own. */
export function CustomFieldValue({ def, value, inline = false }: { def: CustomField; value: unknown; inline?: boolean }) {
  const text = customValueText(def, value)
  if (def.type === 'picklist' && typeof value === 'string' && value !== '') {
    return (
      <Badge variant="light" color={def.options.includes(value) ? 'blue' : 'gray'} radius="sm" tt="none">
        {value}
      </Badge>
    )
  }
  return (
    <Text span={inline} size="sm" c={text === '—' ? 'dimmed' : undefined} style={{ wordBreak: 'break-word' }}>
      {text}
    </Text>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" shadow="xs">
      <Title order={4} mb="md">
        {title}
      </Title>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" m={0}>
        {children}
      </SimpleGrid>
    </Paper>
  )
}

export function CustomFieldDetails({ kind, values }: { kind: KindName; values: Record<string, unknown> | null }) {
  const { fields } = useCustomFields(kind)
  const stored = values ?? {}
  const defined = new Set(fields.map((f) => f.name))
  const others = Object.entries(stored).filter(([key]) => !defined.has(key))
  return (
    <>
      {fields.length > 0 && (
        <Section title="Custom fields">
          {fields.map((d) => (
            <Item key={d.id} label={d.label}>
              <CustomFieldValue def={d} value={stored[d.name]} />
            </Item>
          ))}
        </Section>
      )}
      {others.length > 0 && (
        <Section title={fields.length > 0 ? 'Other data' : 'Custom fields'}>
          {others.map(([key, value]) => (
            <Item key={key} label={key}>
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                {storedValueText(value)}
              </Text>
            </Item>
          ))}
        </Section>
      )}
    </>
  )
}
