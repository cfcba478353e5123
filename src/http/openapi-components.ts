/**
 * Names the schemas of the OpenAPI document. A route schema that carries a `title` (a kind's record,
 * create and update bodies, page and batch; the problem; a webhook; a migration...) moves to
 * components/schemas under that title and is replaced by a `$ref` wherever it appears, so clients
 * generated from the document get one named type per resource. Only the document changes: routes
 * keep their whole schemas, so validation and its error messages stay exactly as they are.
 */

import { operationsOf } from './openapi-operations.ts'

type Json = Record<string, any>

/** Keywords whose values are data, not schemas: a `title` inside them names nothing. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const'])

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** JSON text with sorted keys: two schemas are one component when they say the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

export function nameComponentSchemas(document: Json): Json {
  const schemas: Json = {}
  const seen = new Map<string, string>()

  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist)
    if (!isPlainObject(node)) return node
    const out: Json = {}
    for (const [key, value] of Object.entries(node)) out[key] = DATA_KEYWORDS.has(key) ? value : hoist(value)
    if (typeof out.title !== 'string') return out
    const name = out.title
    const text = canonical(out)
    const earlier = seen.get(name)
    // One name, one shape: two different schemas under one title would make one of them lie.
    if (earlier !== undefined && earlier !== text) throw new Error(`OpenAPI: two different schemas are titled "${name}"; give each its own title`)
    seen.set(name, text)
    schemas[name] = out
    return { $ref: `#/components/schemas/${name}` }
  }

  document.paths = hoist(document.paths ?? {})
  document.components ??= {}
  const sorted = Object.fromEntries(Object.entries({ ...document.components.schemas, ...schemas }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  document.components.schemas = sorted
  return document
}

/**
 * Problems are sent as `application/problem+json` (RFC 9457 §3), so every answer whose schema is the
 * Problem component is documented under that media type, not the `application/json` Fastify assumes.
 */
export function documentProblemMediaType(document: Json): Json {
  const problem = '#/components/schemas/Problem'
  for (const operation of operationsOf(document)) {
    for (const response of Object.values<Json>(operation.responses ?? {})) {
      const content = response?.content
      if (!isPlainObject(content) || content['application/json']?.schema?.$ref !== problem || content['application/problem+json']) continue
      content['application/problem+json'] = content['application/json']
      delete content['application/json']
    }
  }
  return document
}
