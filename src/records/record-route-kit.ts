/**
 * What the REST routes of the record kinds share: the write scope, the error answers, answering
 * with JSON text the database built, the ERP step-up of lists, and the parts every route of one
 * kind is built from (its path, tag, schemas and read checks).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { requireScopes } from '../http/auth.ts'
import { problemSchema } from '../http/schemas.ts'
import type { Scope } from '../shared/auth-context.ts'
import type { RecordKind } from './record-kind.ts'
import { fieldsUsed, listOptionsOf } from './record-query.ts'
import { recordSchema, schemaName, writtenRecordSchema } from './record.schemas.ts'
import { erpFieldsAmong, readScopes } from './record-access.ts'

export const WRITE: Scope[] = ['crm:write']

export const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema }

export function sendJsonText(reply: FastifyReply, json: string, status = 200): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(json)
}

/** Reads and writes already answer as the caller may see (record-access.ts). */
export function sendRecord(reply: FastifyReply, record: Record<string, unknown>, status = 200): FastifyReply {
  return sendJsonText(reply, JSON.stringify(record), status)
}

/**
 * Sorting or filtering by an ERP field needs erp:read: the usual step-up 403 (record-access.ts).
 * Kinds without ERP fields get no hook at all.
 */
export function erpStepUp(kind: RecordKind) {
  if (erpFieldsAmong(kind, kind.fields.map((f) => f.name)).length === 0) return undefined
  const askErp = requireScopes('erp:read')
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // An invalid query (attached, on list routes) answers 400 in the handler, before this check, as it did.
    if (request.validationError) return
    // A bearer token not judged yet: the list's statement judges it, then runs this check (list-with-bearer.ts).
    if (request.auth === null && request.presentedBearer !== null) return
    const used = fieldsUsed(listOptionsOf(kind, request.query as object))
    if (erpFieldsAmong(kind, used).length > 0) await askErp(request, reply)
  }
}

/** What every route of one kind is built from. */
export interface KindRouteParts {
  kind: RecordKind
  tags: string[]
  base: string
  name: string
  one: ReturnType<typeof recordSchema>
  writtenSchema: ReturnType<typeof writtenRecordSchema>
  readCheck: ReturnType<typeof requireScopes>
  stepUp: ReturnType<typeof erpStepUp>
  erpHook: { preHandler?: NonNullable<ReturnType<typeof erpStepUp>> }
}

export function kindRouteParts(kind: RecordKind): KindRouteParts {
  const tags = [kind.labelPlural]
  const one = recordSchema(kind)
  const writtenSchema = writtenRecordSchema(kind)
  const base = `/${kind.path}`
  const name = schemaName(kind)
  const stepUp = erpStepUp(kind)
  const erpHook = stepUp ? { preHandler: stepUp } : {}
  const readCheck = requireScopes(...readScopes(kind))
  return { kind, tags, base, name, one, writtenSchema, readCheck, stepUp, erpHook }
}
