/**
 * One CSV cell as Cairn writes it in every download (record exports, import and migration issues):
 * RFC 4180 quoting (a cell with a comma, quote, CR or LF is quoted, quotes doubled), and spreadsheet
 * formula injection neutralised where a spreadsheet would run the cell (OWASP, "CSV Injection";
 * docs/imports.md, "Formula injection"): a leading `'` before a cell that starts with `=`, `@`, TAB
 * or CR, or with `+` or `-` followed by anything but a number-like value.
 *
 * Number-like (`+1 555 0100`, `-1250.50`, `-3`, `+44 (20) 7946-0958`): digits, spaces, `.`, `(`,
 * `)`, `/` and `-` only. Without a letter such a cell can name no function and no cell, so the worst
 * a spreadsheet does with it is arithmetic on the value shown; a `'` would instead put a mark in
 * every phone number and turn every negative amount into text. A `+` inside (`-2+3`) is not
 * number-like: it is prefixed, as before.
 *
 * A value that already starts with a `'` before such a character (`'=x` typed by someone) gets
 * one more, so that the import's removal of one quote (withoutNeutralisingQuote) gives back exactly
 * the value exported.
 */

const ALWAYS_FORMULA = /^[=@\t\r]/
const SIGNED = /^[+-]/
const NUMBER_LIKE = /^[+-][\d\s.()/-]*\d[\d\s.()/-]*$/
const NEEDS_QUOTES = /[",\r\n]/

/** Whether a spreadsheet could run this text as a formula, so that the export writes a `'` before it. */
export function needsNeutralising(text: string): boolean {
  if (ALWAYS_FORMULA.test(text)) return true
  if (SIGNED.test(text)) return !NUMBER_LIKE.test(text)
  return text.startsWith("'") && needsNeutralising(text.slice(1))
}

/**
 * A cell as read back by an import: without the `'` an export put before it. Only a quote the export
 * would have added is removed (one before a formula start), so `'tis` and `'+1 555` stay as written.
 */
export function withoutNeutralisingQuote(cell: string): string {
  return cell.startsWith("'") && needsNeutralising(cell.slice(1)) ? cell.slice(1) : cell
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value)
  if (needsNeutralising(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A line of cells, ended by CRLF as RFC 4180 says. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`
}
