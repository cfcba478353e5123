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
export function findUnstorableText(value: unknown, path = ''): FieldError | null {
  if (typeof value === 'string') {
    const problem = unstorableTextProblem(value)
    return problem ? { field: path || '(body)', message: problem } : null
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`)
      if (found) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key
      const keyProblem = unstorableTextProblem(key)
      if (keyProblem) return { field: path || '(body)', message: `has a key that ${keyProblem}` }
      const found = findUnstorableText(inner, at)
      if (found) return found
    }
  }
  return null
}
