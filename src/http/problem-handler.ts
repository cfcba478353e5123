/**
 * The one error handler of the REST API: every failure leaves as `application/problem+json`
 * (RFC 9457) with a stable `code`. Client errors are explained; faults are logged and answered with a
 * generic 500, so no internal detail leaks.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError, type FieldError } from '../shared/errors.ts'
import { fieldErrors } from './validation.ts'

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
  return reply.status(p.status).type('application/problem+json').send(JSON.stringify(body))
}

function problemFromFastify(err: FastifyError & { validation?: unknown; validationContext?: string }, bodyLimit: number): ProblemError | null {
  if (err.validation) {
    const part = err.validationContext ?? 'body'
    const errors: FieldError[] = fieldErrors(err.validation as never, part)
    if (part === 'querystring') {
      if (errors.some((e) => e.field === 'limit')) return new ProblemError(400, 'invalid_limit', 'Invalid limit', 'limit must be an integer from 1 to 200.', errors.filter((e) => e.field === 'limit'))
      if (errors.some((e) => e.field === 'cursor')) return new ProblemError(400, 'invalid_cursor', 'Invalid cursor', 'cursor must be the id (a UUID) of a record from a previous page.', errors.filter((e) => e.field === 'cursor'))
    }
    if (part === 'params' && errors.some((e) => e.field === 'id' || e.field.endsWith('_id'))) {
      return new ProblemError(400, 'invalid_id', 'Invalid id', 'The id in the path must be a UUID.', errors)
    }
    const detail = errors.map((e) => `${e.field} ${e.message}`).join('; ')
    return new ProblemError(400, 'validation_failed', 'Validation failed', `Invalid ${part}: ${detail}.`, errors)
  }
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
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ProblemError(err.statusCode, 'bad_request', 'Bad request', err.message)
  }
  return null
}

export function installProblemHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ProblemError) {
      if (err.status >= 500) request.log.error({ err }, 'request failed')
      return sendProblem(reply, err)
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
