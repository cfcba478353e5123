/**
 * What the change feed's routes share: their error answers and the schemas of a position (seq) and
 * of a list of event types in a query.
 */
import { problemSchema } from '../http/schemas.ts'

export const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 410: problemSchema }

export const seqSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const
export const typesSchema = { type: 'string', maxLength: 2000, description: 'Comma-separated event types; default every type the token may read.' } as const
