/**
 * One CSV cell as Cairn writes it in every download (record exports, import and migration issues):
 * RFC 4180 quoting (a cell with a comma, quote, CR or LF is quoted, quotes doubled), and spreadsheet
 * formula injection neutralised as OWASP's "CSV Injection" page advises: a cell starting with
 * `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`, so a spreadsheet shows it as text instead of
 * running it.
 *
 * Numbers are the exception (docs/imports.md, "Exports"): a value of a number field that is exactly
 * a number (`-1234.50`, `-3`) is written as it is. It cannot be a formula, and a `'` would turn every
 * negative amount into text in the spreadsheet. Text that merely looks numeric (a phone number
 * "-5") is still prefixed: only values of decimal and integer fields are numbers.
 */

const FORMULA_START = /^[=+\-@\t\r]/
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/
const NEEDS_QUOTES = /[",\r\n]/

export function csvCell(value: unknown, numeric = false): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value)
  if (FORMULA_START.test(text) && !(numeric && PLAIN_NUMBER.test(text))) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A line of cells, ended by CRLF as RFC 4180 says. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`
}
