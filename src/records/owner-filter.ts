/**
 * Owners in lists and writes (docs/api.md, Owners). A list's `owner_id` filter takes a member's
 * user id, `me` (the caller, as GitHub's `assignee=@me`) or `none` (unassigned); `none` is read as
 * a NULL filter value when the query is read, `me` only once the caller is known (a bearer list's
 * token is judged in the same statement as its page, so such a list takes the two-step path).
 * A new record without an `owner_id` in its body is owned by the person who creates it.
 */
import { UUID_TEXT } from '../http/schemas.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { ValidationFailed } from '../shared/errors.ts'
import type { FieldDef, RecordKind } from './record-kind.ts'
import type { ListOptions } from './record.repository.ts'

export const OWNER_ME = 'me'
export const OWNER_NONE = 'none'

/** The list query schema of a member field's filter (`owner_id=...`). */
export function memberFilterSchema(f: FieldDef): Record<string, unknown> {
  return {
    type: 'string',
    pattern: `^(${OWNER_ME}|${OWNER_NONE}|${UUID_TEXT})$`,
    description: `${f.label}: a member's user id, \`me\` (the calling person) or \`none\` (no ${f.label.toLowerCase()}).`,
  }
}

/** A member filter's value as the query gives it: `none` becomes NULL (IS NULL), the rest stays. */
export function memberFilterValue(f: FieldDef, value: unknown): unknown {
  return f.type === 'user' && value === OWNER_NONE ? null : value
}

/** Whether a list's filters name the caller (`me`), which only the caller's identity can resolve. */
export function namesCaller(opts: Pick<ListOptions, 'filters'>): boolean {
  return opts.filters.some((f) => f.field.type === 'user' && f.value === OWNER_ME)
}

/** The filters with `me` replaced by the caller's user id; a caller who is no person is told so. */
export function withCallerResolved<T extends Pick<ListOptions, 'filters'>>(opts: T, auth: AuthContext): T {
  if (!namesCaller(opts)) return opts
  const me = auth.userId
  if (!me) {
    const field = opts.filters.find((f) => f.value === OWNER_ME)!.field.name
    throw new ValidationFailed(`${field}=me names the calling person, and this token acts for no person (an API client's own token): give a member's user id.`, [
      { field, message: 'me needs a token that acts for a person' },
    ])
  }
  return { ...opts, filters: opts.filters.map((f) => (f.field.type === 'user' && f.value === OWNER_ME ? { ...f, value: me } : f)) }
}

/**
 * A create body with its owner defaulted: the creating person when the body gives no `owner_id`
 * (an explicit null leaves the record unassigned). A token of an API client acting for no person
 * leaves it empty.
 */
export function withDefaultOwner(kind: RecordKind, auth: AuthContext, body: Record<string, unknown>): Record<string, unknown> {
  if (!auth.userId || 'owner_id' in body || !kind.fields.some((f) => f.name === 'owner_id' && !f.readOnly)) return body
  return { ...body, owner_id: auth.userId }
}
