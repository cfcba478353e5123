/**
 * The operations of a generated OpenAPI document, for the document transforms that add what every
 * operation of an area carries (idempotency keys, rate-limit fields, the problem media type).
 */

type Json = Record<string, any>

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Each operation of `methods` on a path starting with `under` (every path when omitted). */
export function* operationsOf(document: Json, methods: readonly string[] = HTTP_METHODS, under = '/'): Generator<Json> {
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    if (!path.startsWith(under)) continue
    for (const method of methods) if (item[method]) yield item[method]
  }
}
