/**
 * PostgreSQL array literals built in one pass, for the import's per-page statements (a page's
 * columns for `unnest`, the source ids of its reference and deduplication lookups).
 */

// Elements made only of these characters never need quotes in an array literal (no delimiter,
// brace, quote, backslash or white space); "NULL" in any case would read as a null, so it is quoted.
const BARE = /^[A-Za-z0-9_.:@+-]+$/
const NEEDS_ESCAPE = /["\\]/g

/**
 * The text of a PostgreSQL array literal of `values` (what `pg` sends for a JS array), written here
 * because `pg` quotes and concatenates element by element, which showed in the import's profile:
 * ids, numbers, dates and codes go bare, the rest are quoted with `"` and `\` escaped.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === undefined) {
      parts[i] = 'NULL'
      continue
    }
    const s = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v)
    if (BARE.test(s) && !(s.length === 4 && s.toLowerCase() === 'null')) parts[i] = s
    else parts[i] = `"${s.replace(NEEDS_ESCAPE, '\\$&')}"`
  }
  return `{${parts.join(',')}}`
}
