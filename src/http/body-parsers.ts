/**
 * The service's two text body parsers, registered once on the root so every route inherits them
 * (/api/v1, /mcp, the OAuth endpoints, the pages' forms): JSON and form-encoded bodies are refused
 * with a 400 when their bytes are not UTF-8, and JSON when it nests deeper than MAX_JSON_DEPTH,
 * before anything parses or walks them (shared/strict-text.ts; docs/api.md, Errors). Each surface
 * answers the refusal in its own format: a problem under /api/v1, a JSON-RPC error on /mcp, RFC 6749
 * error JSON on the OAuth endpoints.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ProblemError } from '../shared/errors.ts'
import { decodeUtf8, MAX_JSON_DEPTH, NestedTooDeep, nestsDeeperThan, NotUtf8 } from '../shared/strict-text.ts'
import { FormTextNotUtf8, parseForm } from './form-urlencoded.ts'

/** Form bodies are small (sign-in, consent, token requests): @fastify/formbody's limit, kept. */
const FORM_BODY_LIMIT = 64 * 1024

/**
 * A body refused before any route saw it. `statusCode` makes it a client error to every error
 * handler (the OAuth one reads it; problem-handler.ts sends it as the problem it is).
 */
export class BodyRefused extends ProblemError {
  readonly statusCode = 400
}

function notUtf8Body(where: string, err: NotUtf8): BodyRefused {
  return new BodyRefused(400, 'invalid_encoding', 'Invalid encoding', `The request body ${where}${err.message}; send text as UTF-8.`)
}

function tooDeepBody(): BodyRefused {
  return new BodyRefused(400, 'nesting_too_deep', 'Nesting too deep', `The request body ${new NestedTooDeep().message}; this API takes JSON nested at most ${MAX_JSON_DEPTH} levels.`)
}

type Done = (err: Error | null, body?: unknown) => void

export function registerBodyParsers(app: FastifyInstance): void {
  // Fastify's own parser after the checks: it keeps its refusal of prototype keys (__proto__,
  // constructor.prototype) and its errors for an empty or malformed body.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done: Done) => {
    if (body.length === 0) return parseJson(request, '', done)
    let text: string
    try {
      text = decodeUtf8(body)
    } catch (err) {
      return done(notUtf8Body('', err as NotUtf8))
    }
    if (nestsDeeperThan(text)) return done(tooDeepBody())
    parseJson(request, text, done)
  })

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, (_request: FastifyRequest, body: Buffer, done: Done) => {
    try {
      done(null, parseForm(body))
    } catch (err) {
      if (!(err instanceof FormTextNotUtf8)) throw err
      done(notUtf8Body(err.parameter === null ? 'has a parameter name that ' : `has a value of ${JSON.stringify(err.parameter.slice(0, 64))} that `, err.notUtf8))
    }
  })
}
