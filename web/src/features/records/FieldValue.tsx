// How one field's value reads on a page or in a table cell, by field type.
import { Anchor, Badge, Text } from '@mantine/core'
import { OwnerName } from '../owners/OwnerName.tsx'
import { badgeColor, formatDate, formatDateTime, formatDecimal, humanize, type CrmRecord, type FieldDef } from '../../kinds.ts'
import { ReferenceLink } from './ReferenceLink.tsx'

function Empty() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  )
}

export function FieldValue({ field, record }: { field: FieldDef; record: CrmRecord }) {
  const value = record[field.name]
  if (value === null || value === undefined || value === '') return <Empty />
  // Not a value of the field's type (data kept from elsewhere): as stored, never "[object Object]".
  if (typeof value === 'object') return <Text span size="sm">{JSON.stringify(value)}</Text>
  switch (field.type) {
    case 'enum':
      return (
        <Badge variant="light" color={badgeColor(String(value))} radius="sm" miw="max-content">
          {humanize(String(value))}
        </Badge>
      )
    case 'boolean':
      return <Text span size="sm">{value ? 'Yes' : 'No'}</Text>
    case 'decimal':
      return <Text span size="sm">{formatDecimal(String(value), record.currency)}</Text>
    case 'integer':
      return <Text span size="sm">{field.name === 'case_number' ? `#${value}` : Number(value).toLocaleString()}</Text>
    case 'date':
      return <Text span size="sm">{formatDate(String(value))}</Text>
    case 'datetime':
      return <Text span size="sm">{formatDateTime(String(value))}</Text>
    case 'url':
      return (
        <Anchor href={String(value)} target="_blank" rel="noreferrer noopener" size="sm">
          {String(value).replace(/^https?:\/\//, '')}
        </Anchor>
      )
    case 'email':
      return (
        <Anchor href={`mailto:${String(value)}`} size="sm">
          {String(value)}
        </Anchor>
      )
    case 'ref':
      return field.ref ? <ReferenceLink kindName={field.ref} id={String(value)} /> : <Text span size="sm">{String(value)}</Text>
    case 'user':
      return <OwnerName id={String(value)} />
    case 'text':
      return (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {String(value)}
        </Text>
      )
    default:
      return <Text span size="sm">{String(value)}</Text>
  }
}
