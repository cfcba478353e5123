// Owns the platform's error envelopes. REST errors are an application/json array of
// {message, errorCode}; OAuth errors use {error, error_description}. jsforce keys its behaviour
// (refresh on 401, error names) off exactly these shapes, so every error goes through here.
import type { FastifyReply } from 'fastify'

export class SfError extends Error {
  readonly status: number
  readonly errorCode: string
  readonly fields: string[] | undefined
  constructor(status: number, errorCode: string, message: string, fields?: string[]) {
    super(message)
    this.status = status
    this.errorCode = errorCode
    this.fields = fields
  }
  body(): Array<Record<string, unknown>> {
    const e: Record<string, unknown> = { message: this.message, errorCode: this.errorCode }
    if (this.fields) e.fields = this.fields
    return [e]
  }
}

export const malformed = (message: string) => new SfError(400, 'MALFORMED_QUERY', message)
export const invalidField = (message: string) => new SfError(400, 'INVALID_FIELD', message)
export const invalidType = (name: string) =>
  new SfError(400, 'INVALID_TYPE', `sObject type '${name}' is not supported. If you are attempting to use a custom object, be sure to append the '__c' after the entity name. Please reference your WSDL or the describe call for the appropriate names.`)
export const notFound = () => new SfError(404, 'NOT_FOUND', 'The requested resource does not exist')
export const invalidSession = () => new SfError(401, 'INVALID_SESSION_ID', 'Session expired or invalid')
export const invalidLocator = () => new SfError(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator')

export function sendSfError(reply: FastifyReply, err: SfError): FastifyReply {
  return reply.code(err.status).type('application/json;charset=UTF-8').send(JSON.stringify(err.body()))
}

export class OAuthError extends Error {
  readonly status: number
  readonly error: string
  constructor(status: number, error: string, description: string) {
    super(description)
    this.status = status
    this.error = error
  }
}
