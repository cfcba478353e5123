/**
 * Source users -> members of the organization, matched by normalised email (Configure's default
 * owner rule). A source user with no member keeps its name (comments show it as their author).
 */
import { sql, type Kysely } from 'kysely'
import type { DB } from '../../db/database.ts'
import type { SourceMetadata } from '../migration.types.ts'

export async function ownerDirectory(db: Kysely<DB>, orgId: string, users: SourceMetadata['users']): Promise<Map<string, { userId: string | null; name: string }>> {
  const members = await sql<{ id: string; email: string }>`
    SELECT u.id, u.email FROM memberships ms JOIN users u ON u.id = ms.user_id WHERE ms.org_id = ${orgId}`.execute(db)
  const byEmail = new Map(members.rows.map((u) => [u.email.trim().toLowerCase(), u.id]))
  return new Map(users.map((u) => [u.Id, { userId: u.Email ? (byEmail.get(u.Email.trim().toLowerCase()) ?? null) : null, name: u.Name }]))
}
