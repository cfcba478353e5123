// A record's fields as a two-column description grid per section (compact: label and value rows,
// for a side column), plus custom fields and the import note. Empty sections are left out.
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import { createContext, useContext, type ReactNode } from 'react'
import { formatDateTime, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { fieldGroups } from './fieldGroups.ts'
import { FieldValue } from './FieldValue.tsx'
import { CustomFieldDetails } from './CustomFieldDetails.tsx'

function Item({ label, children }: { label: string; children: ReactNode }) {
  if (useContext(Rows)) {
    return (
      <Group gap="sm" wrap="nowrap" align="baseline">
        <Text size="sm" c="dimmed" w="38%" style={{ flexShrink: 0 }}>
          {label}
        </Text>
        <div style={{ minWidth: 0, flex: 1, wordBreak: 'break-word' }}>{children}</div>
      </Group>
    )
  }
  return (
    <div>
      <Text size="xs" c="dimmed" fw={500} mb={2}>
        {label}
      </Text>
      <div>{children}</div>
    </div>
  )
}

function Section({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const compact = useContext(Compact)
  return (
    <Paper withBorder p={compact ? 'md' : 'lg'} radius="md" shadow="xs">
      <Title order={compact ? 5 : 4} mb={compact ? 'sm' : 'md'}>
        {title}
      </Title>
      <Rows.Provider value={compact && !wide}>
        <SimpleGrid component="dl" cols={wide || compact ? 1 : { base: 1, sm: 2 }} spacing="lg" verticalSpacing={compact ? 'xs' : 'md'} m={0}>
          {children}
        </SimpleGrid>
      </Rows.Provider>
    </Paper>
  )
}

/** One column per section: the details sit in a side column beside the record's tabs. */
const Compact = createContext(false)
/** Label and value side by side on one row (compact, short values). */
const Rows = createContext(false)

export function RecordDetails({ kind, record, hide = [], compact = false }: { kind: RecordKind; record: CrmRecord; hide?: string[]; compact?: boolean }) {
  const groups = fieldGroups(kind)
    .map((g) => ({
      ...g,
      // Service-set fields appear once they have a value (an escalation time, a conversion).
      fields: g.fields.filter((f) => !hide.includes(f.name) && (g.title !== 'Tracking' || (record[f.name] != null && record[f.name] !== ''))),
    }))
    // Tracking and long-text sections only when something is in them.
    .filter((g) => g.fields.length > 0 && (g.title === 'Details' || g.fields.some((f) => record[f.name] != null && record[f.name] !== '')))
  return (
    <Compact.Provider value={compact}>
    <Stack gap="md">
      {groups.map((g) => (
        <Section key={g.title} title={g.title} wide={g.wide}>
          {g.fields.map((f) => (
            <Item key={f.name} label={f.label}>
              <FieldValue field={f} record={record} />
            </Item>
          ))}
        </Section>
      ))}
      <CustomFieldDetails kind={kind.name} values={record.custom_fields} />
      <Text size="xs" c="dimmed">
        Created {formatDateTime(record.created_at)} · Updated {formatDateTime(record.updated_at)}
        {record.src_id ? ` · Imported, source id ${record.src_id}` : ''}
      </Text>
    </Stack>
    </Compact.Provider>
  )
}
