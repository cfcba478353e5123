/**
 * A CSV cell's text as the value of a record field, or the reason it cannot be one. Cells are read,
 * never repaired: a value that is not what the field holds makes its row an issue (docs/imports.md,
 * "Values"). An empty cell is no value: the field is left out of the row (a new record gets the
 * field's default, a matched record keeps what it has). Spaces around a value are ignored except in
 * free text, where they are part of the value.
 */
import type { FieldDef } from '../records/contracts.ts'

export type CellValue = { value: unknown } | { problem: string } | { empty: true }

const DECIMAL = /^-?\d+(\.\d+)?$/
const INTEGER = /^-?\d+$/
const TRUE = new Set(['true', 'yes', 'y', '1'])
const FALSE = new Set(['false', 'no', 'n', '0'])

/** `Closed Won`, `closed won` and `closed_won` all name the value `closed_won`. */
function enumKey(text: string): string {
  return text.trim().toLowerCase().replace(/[\s-]+/g, '_')
}

export function cellValue(field: FieldDef, cell: string): CellValue {
  const text = field.type === 'string' || field.type === 'text' ? cell : cell.trim()
  if (text.trim() === '') return { empty: true }
  switch (field.type) {
    case 'decimal':
      // Thousands separators and currency signs are refused, not stripped: "1.234" means 1234 in half the world.
      return DECIMAL.test(text) ? { value: text } : { problem: 'must be a number such as 1234.50 (digits, an optional minus sign and a decimal point; no thousands separators or currency)' }
    case 'integer': {
      if (!INTEGER.test(text)) return { problem: 'must be a whole number' }
      const n = Number(text)
      return Number.isSafeInteger(n) ? { value: n } : { problem: 'is too large' }
    }
    case 'boolean': {
      const lower = text.toLowerCase()
      if (TRUE.has(lower)) return { value: true }
      if (FALSE.has(lower)) return { value: false }
      return { problem: 'must be true or false (yes/no and 1/0 are read too)' }
    }
    case 'enum': {
      const values = field.values ?? []
      const match = values.find((v) => v === text) ?? values.find((v) => enumKey(v) === enumKey(text))
      return match ? { value: match } : { problem: `must be one of: ${values.join(', ')}` }
    }
    default:
      // Text, email, url, dates and datetimes: the value as written; the record's own schema checks it.
      return { value: text }
  }
}
