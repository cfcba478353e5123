/**
 * The one error handler of the REST API: every failure leaves as `application/problem+json`
 * (RFC 9457) with a stable `code`. Client errors are explained; faults are logged and answered with a
 * generic 500, so no internal detail leaks.
 */
import type { Duplex } from 'node:stream'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { problemFromDatabaseRefusal, ProblemError, type FieldError } from '../shared/errors.ts'
import { fieldErrors } from './validation.ts'
import { DatabaseUnavailable, isServerLost } from '../db/database-unavailable.ts'

/**
 * The primary is gone or being replaced (src/db/primary-failover.ts): a retryable 503 with
 * Retry-After, not a 500. Whether the interrupted write committed is for the retry to find out:
 * a keyed retry answers the stored outcome (docs/api.md, Idempotent retries).
 */
function problemFromLostDatabase(err: unknown): ProblemError | null {
  if (!isServerLost(err)) return null
  const seconds = err instanceof DatabaseUnavailable ? err.retryAfterSeconds : 1
  return new ProblemError(503, 'database_unavailable', 'Database unavailable', 'The database is briefly unavailable (a restart or failover); retry the request shortly.', undefined, { 'retry-after': String(seconds) })
}

export function sendProblem(reply: FastifyReply, p: ProblemError): FastifyReply {
  for (const [k, v] of Object.entries(p.headers)) reply.header(k, v)
  const body: Record<string, unknown> = {
    type: `https://cairn.dev/problems/${p.code.replace(/_/g, '-')}`,
    title: p.title,
    status: p.status,
    detail: p.message,
    code: p.code,
  }
  if (p.errors?.length) body.errors = p.errors
  Object.assign(body, p.extensions)
  return reply.status(p.status).type('application/problem+json').send(JSON.stringify(body))
}

function problemFromFastify(err: FastifyError & { validation?: unknown; validationContext?: string }, bodyLimit: number): ProblemError | null {
  if (err.validation) {
    const part = err.validationContext ?? 'body'
    const errors: FieldError[] = fieldErrors(err.validation as never, part)
    if (part === 'querystring') {
      if (errors.some((e) => e.field === 'limit')) {
        // Lists take 1-200, search 1-50: the limit's own schema says which (Ajv runs verbose).
        const max = (err.validation as { instancePath: string; parentSchema?: { maximum?: number } }[]).find((e) => e.instancePath === '/limit')?.parentSchema?.maximum ?? 200
        return new ProblemError(400, 'invalid_limit', 'Invalid limit', `limit must be an integer from 1 to ${max}.`, errors.filter((e) => e.field === 'limit'))
      }
      if (errors.some((e) => e.field === 'cursor')) return new ProblemError(400, 'invalid_cursor', 'Invalid cursor', 'cursor must be the id (a UUID) of a record from a previous page.', errors.filter((e) => e.field === 'cursor'))
    }
    if (part === 'params' && errors.some((e) => e.field === 'id' || e.field.endsWith('_id'))) {
      return new ProblemError(400, 'invalid_id', 'Invalid id', 'The id in the path must be a UUID.', errors)
    }
    const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ')
    return new ProblemError(400, 'validation_failed', 'Validation failed', `Invalid ${part}: ${detail}.`, errors)
  }
  const refused = problemFromDatabaseRefusal(err)
  if (refused) return refused
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemError(413, 'payload_too_large', 'Payload too large', `The request body exceeds the limit of ${bodyLimit} bytes.`)
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ProblemError(400, 'malformed_json', 'Malformed JSON', `The request body is not valid JSON: ${err.message}`)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the request body as application/json.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ProblemError(400, 'invalid_content_length', 'Invalid Content-Length', err.message)
  }
  if (err.statusCode === 400 && err instanceof SyntaxError) {
    return new ProblemError(400, 'malformed_json', 'Malformed JSON', `The request body is not valid JSON: ${err.message}`)
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return clientProblem(err.statusCode, err.message)
  return null
}

/** Stable codes for the client errors Fastify and Node raise themselves, named after their status. */
const CLIENT_CODES: Record<number, [code: string, title: string]> = {
  400: ['bad_request', 'Bad request'],
  404: ['not_found', 'Not found'],
  405: ['method_not_allowed', 'Method not allowed'],
  406: ['not_acceptable', 'Not acceptable'],
  408: ['request_timeout', 'Request timeout'],
  411: ['length_required', 'Length required'],
  413: ['payload_too_large', 'Payload too large'],
  414: ['uri_too_long', 'URI too long'],
  415: ['unsupported_media_type', 'Unsupported media type'],
  431: ['headers_too_large', 'Request header fields too large'],
}

export function clientProblem(status: number, detail: string): ProblemError {
  const [code, title] = CLIENT_CODES[status] ?? CLIENT_CODES[400]
  return new ProblemError(CLIENT_CODES[status] ? status : 400, code, title, detail)
}

/**
 * A problem written straight to a socket, for requests Node's HTTP parser refused before Fastify
 * saw them (malformed request line, oversized headers, timeouts): Fastify's default answers these
 * with its own JSON shape.
 */
function rawProblem(p: ProblemError): string {
  const body = JSON.stringify({ type: `https://cairn.dev/problems/${p.code.replace(/_/g, '-')}`, title: p.title, status: p.status, detail: p.message, code: p.code })
  return `HTTP/1.1 ${p.status} ${p.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
}

export function clientErrorHandler(err: NodeJS.ErrnoException & { code?: string }, socket: Duplex): void {
  // A reset connection has no one to answer (Node's own handler skips it too).
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const p =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? clientProblem(408, 'The request was not received in time.')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? clientProblem(431, 'The request headers are too large.')
        : clientProblem(400, 'The request is not valid HTTP.')
  if (socket.writable) socket.write(rawProblem(p))
  socket.destroy(err)
}

/** Fastify's router errors (a path that is not valid percent-encoding, a path parameter too long). */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendProblem(reply, clientProblem(414, 'A path segment of the request is too long.'))
  } else if (err.code === 'FST_ERR_BAD_URL') {
    sendProblem(reply, new ProblemError(400, 'invalid_path', 'Invalid path', 'The request path is not valid percent-encoding.'))
  } else {
    sendProblem(reply, new ProblemError(500, 'internal_error', 'Internal error', 'Something went wrong on our side.'))
  }
}

export function installProblemHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ProblemError) {
      if (err.status >= 500) request.log.error({ err }, 'request failed')
      return sendProblem(reply, err)
    }
    const lost = problemFromLostDatabase(err)
    if (lost) {
      request.log.warn({ code: lost.code, cause: (err as Error).message }, 'database unavailable')
      return sendProblem(reply, lost)
    }
    const known = problemFromFastify(err, bodyLimit)
    if (known) {
      request.log.info({ code: known.code, status: known.status }, known.message)
      return sendProblem(reply, known)
    }
    request.log.error({ err }, 'unhandled error')
    return sendProblem(reply, new ProblemError(500, 'internal_error', 'Internal error', 'Something went wrong on our side. The request id in the x-request-id header helps us find it.'))
  })
  app.setNotFoundHandler((request, reply) => {
    sendProblem(reply, new ProblemError(404, 'not_found', 'Not found', `No route for ${request.method} ${request.url.split('?')[0]}.`))
  })
}
