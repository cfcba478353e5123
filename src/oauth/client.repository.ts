/** SQL for OAuth clients and their per-organization access. */
import { sql, type Kysely } from 'kysely'
import type { DB, OAuthClientTable } from '../db/database.ts'
import type { Insertable } from 'kysely'

export type NewClientRow = Insertable<OAuthClientTable>

export function insertClient(db: Kysely<DB>, row: NewClientRow) {
  return db.insertInto('oauth_clients').values(row).execute()
}

export function findClient(db: Kysely<DB>, clientId: string) {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

export async function ensureClientAccess(db: Kysely<DB>, orgId: string, clientId: string): Promise<void> {
  await db.insertInto('oauth_client_access').values({ org_id: orgId, client_id: clientId }).onConflict((oc) => oc.doNothing()).execute()
}

export function findClientAccess(db: Kysely<DB>, orgId: string, clientId: string, forShare = false) {
  const q = db.selectFrom('oauth_client_access').selectAll().where('org_id', '=', orgId).where('client_id', '=', clientId)
  return (forShare ? q.forShare() : q).executeTakeFirst()
}

/** Clients an organization created or whose tokens its people hold, newest first. */
export function listClientsOfOrg(db: Kysely<DB>, orgId: string) {
  return db
    .selectFrom('oauth_client_access as a')
    .innerJoin('oauth_clients as c', 'c.client_id', 'a.client_id')
    .select(['c.client_id', 'c.name', 'c.redirect_uris', 'c.scopes', 'c.registration', 'c.auth_method', 'c.created_at', 'a.last_used_at', 'a.revoked_at', 'c.revoked_at as client_revoked_at', 'c.metadata'])
    .where('a.org_id', '=', orgId)
    .orderBy('c.created_at', 'desc')
    .execute()
}

/** Revokes a client for one organization (and the client itself when that organization owns it). */
export async function revokeClientAccess(db: Kysely<DB>, orgId: string, clientId: string, now: Date): Promise<boolean> {
  const res = await db
    .updateTable('oauth_client_access')
    .set({ revoked_at: now.toISOString() })
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  await db.updateTable('oauth_clients').set({ revoked_at: now.toISOString() }).where('client_id', '=', clientId).where('org_id', '=', orgId).where('revoked_at', 'is', null).execute()
  // Bearer checks read only the token row: mark every grant and token of the client here.
  await sql`UPDATE oauth_grants SET revoked_at = ${now.toISOString()} WHERE org_id = ${orgId} AND client_id = ${clientId} AND revoked_at IS NULL`.execute(db)
  await sql`UPDATE oauth_tokens SET revoked_at = ${now.toISOString()} WHERE org_id = ${orgId} AND client_id = ${clientId} AND revoked_at IS NULL`.execute(db)
  return Number(res.numUpdatedRows) > 0
}

/**
 * Records that a client obtained tokens. Run after the issuing transaction (inside it, the update
 * would upgrade the share lock that transaction holds, and two concurrent exchanges would deadlock),
 * and at most once a minute per client, so a busy client does not queue on one row.
 */
export async function touchClientAccess(db: Kysely<DB>, orgId: string, clientId: string, now: Date): Promise<void> {
  const minuteAgo = new Date(now.getTime() - 60_000).toISOString()
  await db
    .updateTable('oauth_client_access')
    .set({ last_issued_at: now.toISOString() })
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('last_issued_at', 'is', null), eb('last_issued_at', '<', minuteAgo)]))
    .execute()
}

/**
 * Records that a token of the client was accepted at `at` (oauth/client-use.ts decides when to
 * call it). Only forward: processes sharing the database write independently, and one's earlier
 * use landing after another's later one must not move the time back.
 */
export async function markClientUsed(db: Kysely<DB>, orgId: string, clientId: string, at: Date): Promise<void> {
  await db
    .updateTable('oauth_client_access')
    .set({ last_used_at: at.toISOString() })
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at.toISOString())]))
    .execute()
}

/** The names of these clients (history and operations show an actor's client by name). */
export async function clientNames(db: Kysely<DB>, clientIds: readonly string[]): Promise<Map<string, string>> {
  if (clientIds.length === 0) return new Map()
  const rows = await db.selectFrom('oauth_clients').select(['client_id', 'name']).where('client_id', 'in', [...clientIds]).execute()
  return new Map(rows.map((r) => [r.client_id, r.name]))
}
