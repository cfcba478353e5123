/**
 * A request to /api/v1 whose path parameters, query or JSON body hold text PostgreSQL cannot
 * store (shared/storable-text.ts), or whose query is not UTF-8, is a 400 naming the value, on every
 * route alike. Before this, the same NUL was a 400 from a single create, written as U+FFFD by a
 * batch, and part of a src_id in a path; a lone surrogate was changed into U+FFFD everywhere.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ValidationFailed, type FieldError } from '../shared/errors.ts'
import { findUnstorableText } from '../shared/storable-text.ts'
import { FormTextNotUtf8, parseForm } from './form-urlencoded.ts'

const PARTS = [
  ['params', (r: FastifyRequest) => findUnstorableText(r.params)],
  ['querystring', (r: FastifyRequest) => queryNotUtf8(r.url) ?? findUnstorableText(r.query)],
  ['body', (r: FastifyRequest) => findUnstorableText(r.body)],
] as const

// A percent-escape of a byte past ASCII, or such a byte itself: only then can a query be other than UTF-8.
const BEYOND_ASCII = /%[89a-f][0-9a-f]|[^\x00-\x7f]/i

/**
 * The parameter of the raw query whose bytes are not UTF-8. Fastify's parser keeps such an escape as
 * its literal text (`?q=%FF` searched for the three characters `%FF`); it is refused like a JSON body
 * that is not UTF-8 (http/body-parsers.ts). Path parameters are refused by the router already.
 */
function queryNotUtf8(url: string): FieldError | null {
  const at = url.indexOf('?')
  if (at < 0 || !BEYOND_ASCII.test(url)) return null
  try {
    parseForm(Buffer.from(url.slice(at + 1), 'latin1'))
    return null
  } catch (err) {
    if (!(err instanceof FormTextNotUtf8)) throw err
    return { field: err.parameter ?? '(querystring)', message: err.notUtf8.message }
  }
}

/** A callback hook, not an async one: it runs on every request, the hot list included, and needs no promise. */
export function refuseUnstorableText(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  for (const [part, find] of PARTS) {
    const found = find(request)
    if (!found) continue
    const refusal = new ValidationFailed(`Invalid ${part}: ${found.field} ${found.message}.`, [found])
    // Routes that take their validation errors later (a bearer list judges its token first) get it the same way.
    if (request.routeOptions.attachValidation) {
      request.validationError = refusal as unknown as FastifyRequest['validationError']
      break
    }
    return done(refusal)
  }
  done()
}
