/**
 * What both databases' prepared statements share (prepared-pool.ts for PostgreSQL,
 * pglite-prepared.ts for the embedded database): a statement's name, derived from its text; the
 * limits on what is prepared; and PostgreSQL's refusal of a plan whose tables changed shape.
 */
import crypto from 'node:crypto'

/** Distinct texts prepared per connection; the rest run unnamed, so varying shapes cannot grow the server's memory without bound. */
const MAX_PREPARED = 500
/** Longer texts (large IN lists and the like) are not worth a name. */
const MAX_TEXT = 16_000

/** PostgreSQL's refusal of a prepared statement whose tables changed shape (SQLSTATE 0A000). */
export function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type')
}

// Hashing the text on every query showed in profiles; the same few texts repeat, so remember them.
const names = new Map<string, string>()
export function statementName(text: string): string {
  let name = names.get(text)
  if (name === undefined) {
    name = `c_${crypto.createHash('sha1').update(text).digest('base64url')}`
    if (names.size < 5000) names.set(text, name)
  }
  return name
}

/**
 * The name to prepare a statement under on one connection, or null to run it unnamed: it has no
 * parameters, its text is too long, its plan went stale there, or the connection already holds
 * MAX_PREPARED others.
 */
export function nameToPrepare(text: string, valueCount: number, prepared: { has(name: string): boolean; readonly size: number }, unusable: ReadonlySet<string>): string | null {
  if (valueCount === 0 || text.length > MAX_TEXT) return null
  const name = statementName(text)
  if (unusable.has(name) || (!prepared.has(name) && prepared.size >= MAX_PREPARED)) return null
  return name
}
