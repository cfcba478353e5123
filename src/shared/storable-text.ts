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

/**
 * The first string of a parsed JSON value (keys included) that cannot be stored, with its path
 * (`records[2].name`). The walk keeps its own stack instead of recursing, so a value nested however
 * deep is walked in constant call depth (bodies are limited to 64 levels before this runs, but MCP
 * arguments and other callers need not rely on that).
 */
export function findUnstorableText(value: unknown): FieldError | null {
  if (typeof value === 'string') {
    const message = unstorableTextProblem(value)
    return message === null ? null : { field: '(body)', message }
  }
  if (value === null || typeof value !== 'object') return null
  const stack: Container[] = [containerOf(value)]
  // trail[k] is the step from stack[k] into stack[k + 1]; with the step being looked at, the path.
  const trail: Array<string | number> = []
  while (stack.length > 0) {
    const top = stack[stack.length - 1]
    if (top.next >= top.size) {
      stack.pop()
      trail.pop()
      continue
    }
    const i = top.next++
    let step: string | number = i
    if (top.keys !== null) {
      step = top.keys[i]
      const keyProblem = unstorableTextProblem(step)
      if (keyProblem) return found(trail, `has a key that ${keyProblem}`)
    }
    const child = (top.node as Record<string | number, unknown>)[step]
    if (typeof child === 'string') {
      const message = unstorableTextProblem(child)
      if (message !== null) return found([...trail, step], message)
    } else if (child !== null && typeof child === 'object') {
      stack.push(containerOf(child))
      trail.push(step)
    }
  }
  return null
}

/** An array or object being walked: its keys (null for an array), its size, and the next to look at. */
interface Container {
  node: object
  keys: string[] | null
  size: number
  next: number
}

function containerOf(node: object): Container {
  if (Array.isArray(node)) return { node, keys: null, size: node.length, next: 0 }
  const keys = Object.keys(node)
  return { node, keys, size: keys.length, next: 0 }
}

/** A path is only built for a refusal. */
function found(trail: ReadonlyArray<string | number>, message: string): FieldError {
  const field = trail.reduce<string>((path, step) => (typeof step === 'number' ? `${path}[${step}]` : path ? `${path}.${step}` : step), '')
  return { field: field || '(body)', message }
}
