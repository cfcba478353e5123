// A source field as the report and the mapping editor show it: its label, API name and what is
// special about it (custom, formula, required in the source).
import type { FieldMapping } from '../../../api/migration.ts'
import { ApiNameLabel } from './ApiNameLabel.tsx'

export function SourceFieldName({ field: f }: { field: FieldMapping }) {
  const badges = [f.custom && { text: 'Custom', color: 'gray' }, f.calculated && { text: 'Formula', color: 'violet' }, f.required && { text: 'Required', color: 'orange' }]
  return <ApiNameLabel label={f.label} apiName={f.source} badges={badges} fw={500} gap={4} />
}

/** Where the analysis sends a field's value, in words. */
export function mappingTarget(f: FieldMapping): string {
  switch (f.action) {
    case 'field':
      return f.target ?? '—'
    case 'reference':
      return Object.entries(f.targets ?? {})
        .map(([object, field]) => `${field} (${object})`)
        .join(', ')
    case 'owner':
      return `${f.target ?? 'owner_id'} (member by email)`
    case 'custom_field':
      return `custom_fields.${f.source}`
    case 'ignore':
      return '—'
  }
}

export const ACTION_LABEL: Record<FieldMapping['action'], string> = {
  field: 'Field',
  reference: 'Link',
  owner: 'Owner',
  custom_field: 'Custom field',
  ignore: 'Not imported',
}
