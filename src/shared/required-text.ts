/**
 * The rule of required text, whichever door a value comes in by (REST single and batch writes,
 * upserts, lead conversion, CSV imports, MCP tools, the browser's forms, the migration): a required
 * text field holds at least one visible character, and its surrounding whitespace is removed before
 * it is stored (docs/api.md, Records). Pure data and functions: the browser app imports it too.
 */

/**
 * What the write schemas say (OpenAPI, Ajv, the app's form check): at least one non-whitespace
 * character. `\S` is read alike by every client's regular expressions; the service's own check
 * (isBlank) also counts invisible characters as blank, which such a pattern cannot say portably.
 */
export const NOT_BLANK_PATTERN = '\\S'
export const BLANK_MESSAGE = 'cannot be blank'

/**
 * A character a person can see. Not: whitespace (Unicode White_Space, which also has U+0085, absent
 * from JavaScript's `\s`), characters with no appearance (Default_Ignorable_Code_Point: zero-width
 * space U+200B, joiners, word joiner U+2060, byte order mark U+FEFF, soft hyphen, Hangul fillers),
 * and the empty Braille cell U+2800, the usual stand-in for a name that shows nothing.
 */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/u
/**
 * Trimmed: whitespace and the byte order mark (what JavaScript's trim() removes, plus U+0085). Other
 * invisible characters stay: at an end they may belong to the text (an emoji's variation selector).
 */
const SURROUNDING_SPACE = /^[\p{White_Space}\uFEFF]+|[\p{White_Space}\uFEFF]+$/gu

export function isBlank(text: string): boolean {
  return !VISIBLE.test(text)
}

export function withoutSurroundingSpace(text: string): string {
  return text.replace(SURROUNDING_SPACE, '')
}

/** A required field's schema in a write body: text gets the not-blank keywords, other types stay as they are. */
export function notBlankSchema<S extends Record<string, unknown>>(schema: S): S {
  if (schema.type !== 'string' || schema.enum || schema.format) return schema
  return { ...schema, minLength: 1, pattern: NOT_BLANK_PATTERN }
}

/**
 * `values` with each of `names` that holds text trimmed, and the names that are blank. The caller
 * has checked types (schemas); a value that is not text is left to them.
 */
export function settleRequiredText(names: readonly string[], values: Record<string, unknown>): { values: Record<string, unknown>; blank: string[] } {
  const blank: string[] = []
  let out = values
  for (const name of names) {
    const v = values[name]
    if (typeof v !== 'string') continue
    if (isBlank(v)) {
      blank.push(name)
      continue
    }
    const trimmed = withoutSurroundingSpace(v)
    if (trimmed !== v) {
      if (out === values) out = { ...values }
      out[name] = trimmed
    }
  }
  return { values: out, blank }
}
