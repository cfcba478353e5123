/**
 * A request to /api/v1 whose path parameters, query or JSON body hold text PostgreSQL cannot
 * store (shared/storable-text.ts) is a 400 naming the value, on every route alike. Before this,
 * the same NUL was a 400 from a single create, written as U+FFFD by a batch, and part of a src_id
 * in a path; a lone surrogate was changed into U+FFFD everywhere.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { ValidationFailed } from '../shared/errors.ts'
import { findUnstorableText } from '../shared/storable-text.ts'

const PARTS = [
  ['params', (r: FastifyRequest) => r.params],
  ['querystring', (r: FastifyRequest) => r.query],
  ['body', (r: FastifyRequest) => r.body],
] as const

/** A callback hook, not an async one: it runs on every request, the hot list included, and needs no promise. */
export function refuseUnstorableText(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  for (const [part, read] of PARTS) {
    const found = findUnstorableText(read(request))
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
