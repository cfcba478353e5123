// Words of Settings -> Fields: what each type holds, for the type picker and the table.
import type { CustomField } from '../../../api/customFields.ts'

export const TYPE_LABELS: Record<CustomField['type'], string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  boolean: 'Yes / no',
  picklist: 'Picklist',
}

export const TYPE_HINTS: Record<CustomField['type'], string> = {
  text: 'Up to 2,000 characters.',
  number: 'Whole or decimal, negative allowed.',
  date: 'A calendar date.',
  boolean: 'Yes or no.',
  picklist: 'One of a list of options you define.',
}

export const TYPE_COLORS: Record<CustomField['type'], string> = { text: 'gray', number: 'blue', date: 'grape', boolean: 'teal', picklist: 'orange' }
