/**
 * Many values as one JSON array parameter: each column of a bulk write, and the keys of a lookup of
 * many keys. PostgreSQL reads them back element by element with `json_array_elements_text` (and
 * `jsonb_array_elements` for custom fields), several side by side with `ROWS FROM`.
 *
 * JSON because JSON.stringify does in C++ what a hand-built array literal did value by value in
 * JavaScript (test, quote, escape, join): 0.03 against 0.17-0.29 µs a text value, and PostgreSQL
 * parses it no slower (measured on 2,000-value columns of names, codes, numbers and uuids).
 */

import { sql, type RawBuilder } from 'kysely'

// JSON.stringify escapes as \uXXXX only control characters and lone surrogates. PostgreSQL refuses
// two of them as text or jsonb: \u0000 and lone surrogates, which would fail the whole page.
const REFUSED_ESCAPE = /\\u(?:0000|d[89a-f])/i

/**
 * `values` as a JSON array: null and undefined are null, strings stay exact except that a NUL
 * character or a lone surrogate (never valid text in PostgreSQL) becomes U+FFFD, as invalid UTF-8
 * from the source does. Requests and CSV cells never bring them this far (they are refused where they
 * enter, shared/storable-text.ts); the source platform's values and lookups' keys can.
 */
export function jsonArray(values: readonly unknown[]): string {
  const text = JSON.stringify(values)
  if (!text.includes('\\u') || !REFUSED_ESCAPE.test(text)) return text
  return JSON.stringify(values, (_key, value: unknown) => (typeof value === 'string' ? storable(value) : value))
}

function storable(s: string): string {
  return s.toWellFormed().replaceAll('\u0000', '\uFFFD')
}

/** `values` as a set-returning column of text, for `ROWS FROM (...)` beside other such columns. */
export function jsonTextColumn(values: readonly unknown[]): RawBuilder<unknown> {
  return sql`json_array_elements_text(CAST(${jsonArray(values)} AS json))`
}

/** `values` as a subquery of uuids, for `id IN ${uuidSet(ids)}` (one parameter however many ids). */
export function uuidSet(values: readonly string[]): RawBuilder<unknown> {
  return sql`(SELECT CAST(e AS uuid) FROM json_array_elements_text(CAST(${jsonArray(values)} AS json)) AS e)`
}

/** `values` as a text[] value. */
export function textArray(values: readonly string[]): RawBuilder<unknown> {
  return sql`ARRAY(SELECT json_array_elements_text(CAST(${jsonArray(values)} AS json)))`
}
