/** SQL for organizations, users and memberships. */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}

export async function countOrganizations(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n) // a string on `pg`, a number on PGlite
}

export function findUserByEmail(db: Kysely<DB>, email: string) {
  return db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst()
}

export function findUserById(db: Kysely<DB>, id: string) {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst()
}

export function listMembershipsOfUser(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .select(['o.id', 'o.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .execute()
}

export function findMembership(db: Kysely<DB>, orgId: string, userId: string) {
  return db.selectFrom('memberships').selectAll().where('org_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst()
}

export function findOrganization(db: Kysely<DB>, orgId: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst()
}
