/**
 * A record list called with a bearer token, in one statement. The two-step path looks the token up
 * (one round trip), then reads the page (a second); at the list's cost, that first trip was a large
 * share of each request's latency and of the database's work. Here the token lookup of the
 * two-step check (its own SQL, from oauth/bearer.ts) is a CTE, and the page reads only the
 * organization of a token that passes every check: an access token, valid now, bound to a
 * resource this API serves, granted the scopes the page needs.
 *
 * Failing closed: the statement also returns the token row it found, and the answer is decided by
 * the same rules, in the same order, as the two-step path: 401 invalid_token (accept), 403 for the
 * kind's read scopes, 429, 400 for an invalid query, 403 erp:read for sorting or filtering by
 * amounts. The condition in SQL only guarantees that no record is read for a token they refuse.
 * Session-cookie requests keep the two-step path (a session lookup, then the page): browsers are
 * not the integrators this path is for.
 *
 * The statement answers one row: the token, the page's whole envelope (record.repository.ts,
 * pageEnvelopeSql) and, for a token without erp:read, amounts already read as null by the page
 * itself, so the service passes the text through; record-access.ts shapes whatever was not.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { PresentedBearer } from '../http/auth.ts'
import { CompiledQuery } from 'kysely'
import type { BearerRow } from '../http/auth.ts'
import type { RecordKind } from './record-kind.ts'
import { erpShownSql, scopesToUseFields } from './record-access.ts'
import { fieldsUsed, listOptionsOf } from './record-query.ts'
import { namesCaller } from './owner-filter.ts'
import { bind, listPageSql, pageEnvelopeSql, type ListOptions, type PageEnvelopeRow, type PageText } from './record.repository.ts'
import { listRecords, pageForCaller } from './record.service.ts'

/** The statement's one row: the token found (JSON, or null), whether it showed ERP fields, the page. */
interface BearerListRow extends PageEnvelopeRow {
  token: string | null
  erp_shown: boolean | null
}

/** A route's own scope hook (http/auth.ts requireScopes), run here once the token is judged. */
export type ScopeCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export async function listWithBearer(request: FastifyRequest, reply: FastifyReply, kind: RecordKind, checks: { read: ScopeCheck; erp?: ScopeCheck }): Promise<PageText> {
  const { db } = request.server
  const presented = request.presentedBearer!
  const opts = request.validationError ? null : listOptionsOf(kind, request.query as object)
  // Custom field filters are read by the organization's definitions, known only once the token is:
  // such lists take the two-step path.
  const twoStep = async () => {
    const found = await db.executeQuery<BearerRow>(CompiledQuery.raw(presented.lookupSql, [presented.tokenHash, presented.now.toISOString()]))
    request.auth = presented.accept(found.rows[0] ?? null)
    await checks.read(request, reply)
    await request.server.admitRequest(request, reply)
    return request.auth
  }
  if (!opts) {
    // No page to read: the two-step check, so an invalid query answers after the token as it did.
    await twoStep()
    throw request.validationError
  }
  // So are those naming the caller (`owner_id=me`): the person is the token's (owner-filter.ts).
  if (opts.custom?.length || namesCaller(opts)) {
    const auth = await twoStep()
    await checks.erp?.(request, reply)
    return listRecords(db, auth, kind, opts)
  }
  const { text, params } = bearerListStatement(presented, kind, opts)
  const statement = CompiledQuery.raw(text, params)
  let row = (await request.server.readDb.executeQuery<BearerListRow>(statement)).rows[0]
  // A replica may not have replayed a token issued a moment ago: a token it does not find is
  // looked up again on the primary before it is refused. (A token revoked a moment ago is, on a
  // replica, still accepted for at most the replica lag bound: docs/scale-out.md, Read replicas.)
  if (row.token === null && request.server.readDb !== db) row = (await db.executeQuery<BearerListRow>(statement)).rows[0]
  request.auth = presented.accept(row.token === null ? null : (JSON.parse(row.token) as BearerRow))
  await checks.read(request, reply)
  await request.server.admitRequest(request, reply)
  await checks.erp?.(request, reply)
  return pageForCaller(db, request.auth, kind, opts, row, row.erp_shown === false)
}

/**
 * The one statement of a bearer list: the token lookup, the checks a token must pass for any
 * record to be read, and the page's envelope. Exported for the benchmark, whose PostgreSQL
 * baseline runs this very text.
 */
export function bearerListStatement(presented: Pick<PresentedBearer, 'lookupSql' | 'tokenHash' | 'now' | 'servedBy'>, kind: RecordKind, opts: ListOptions): { text: string; params: unknown[] } {
  const needed = scopesToUseFields(kind, fieldsUsed(opts))
  // $1 and $2 are the lookup's own parameters (token hash, now).
  const params: unknown[] = [presented.tokenHash, presented.now.toISOString(), presented.servedBy, needed]
  // Whether the token may read ERP fields: where not, the page reads them as null (record-access.ts's rule).
  const erpShown = `(SELECT ${erpShownSql('tok.scopes', bind(params))} FROM tok)`
  const page = pageEnvelopeSql(listPageSql(kind, opts, bind(params), '(SELECT org_id FROM passed)', erpShown), opts.limit)
  const text =
    `WITH tok AS (${presented.lookupSql}), ` +
    `passed AS (SELECT org_id FROM tok WHERE kind = 'access' AND resource = ANY(CAST($3 AS text[])) AND scopes @> CAST($4 AS text[])) ` +
    // The token row (NULL when none is valid now) beside the page's envelope, which is empty unless it passed.
    `SELECT (SELECT row_to_json(tok)::text FROM tok) AS token, ${erpShown} AS erp_shown, p.n, p.json FROM (${page}) p`
  return { text, params }
}
