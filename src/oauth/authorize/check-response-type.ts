/** Only the authorization code flow: `response_type=code` (RFC 6749 §4.1.1; OAuth 2.1 drops implicit). */
import { InvalidRequest, UnsupportedResponseType } from '../oauth.errors.ts'
import type { AuthorizeCheck } from './authorize-request.ts'

export const checkResponseType: AuthorizeCheck = (ctx) => {
  const value = ctx.params.response_type
  if (value === undefined || value === '') throw new InvalidRequest('response_type is missing; use response_type=code.')
  if (value !== 'code') throw new UnsupportedResponseType('Only response_type=code is supported.')
}
