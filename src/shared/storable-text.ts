/**
 * Text PostgreSQL cannot store as it is: the NUL character (its text types refuse it) and lone
 * surrogates (not Unicode; encoded as UTF-8 they become U+FFFD, so two different values would be
 * stored as one). Such text is refused where it enters, naming where it was, instead of failing a
 * statement, or being changed on its way in without a word (docs/api.md, Records).
 */
import type { FieldError } from './errors.ts'

/** Why this text cannot be stored as it is, or null. */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\0')) return 'must not contain the NUL character (U+0000)'
  if (!text.isWellFormed()) return 'must be valid Unicode text (it holds a lone surrogate, U+D800-U+DFFF)'
  return null
}

/** The first string of a parsed JSON value (keys included) that cannot be stored, with its path (`records[2].name`). */
export function findUnstorableText(value: unknown): FieldError | null {
  const trail: Array<string | number> = []
  const message = search(value, trail)
  if (message === null) return null
  // The trail was gathered on the way back out, innermost first; a path is only built for a refusal.
  const field = trail.reverse().reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : path ? `${path}.${step}` : step), '')
  return { field: field || '(body)', message }
}

/** The problem of the first unstorable string under `value`, with the steps to it pushed onto `trail`. */
function search(value: unknown, trail: Array<string | number>): string | null {
  if (typeof value === 'string') return unstorableTextProblem(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = search(value[i], trail)
      if (found !== null) return trail.push(i), found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const key in value) {
      const keyProblem = unstorableTextProblem(key)
      if (keyProblem) return `has a key that ${keyProblem}`
      const found = search((value as Record<string, unknown>)[key], trail)
      if (found !== null) return trail.push(key), found
    }
  }
  return null
}
