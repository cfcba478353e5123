/**
 * Organizations and the people in them: the first-run setup, the CLI's `org create` and `user create`.
 */
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { Conflict, NotFound, ValidationFailed } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyPassword } from '../shared/passwords.ts'
import { emailKey, findOrganization, findUserByEmail } from './org.repository.ts'

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function checkPersonInput(input: { email: string; password: string; name?: string }): void {
  const errors = []
  if (!EMAIL_RE.test(input.email.trim()) || input.email.length > 320) errors.push({ field: 'email', message: 'must be an email address' })
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > MAX_PASSWORD_LENGTH)
    errors.push({ field: 'password', message: `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` })
  if (input.name !== undefined && (input.name.trim() === '' || input.name.length > 200)) errors.push({ field: 'name', message: 'must be 1 to 200 characters' })
  // PostgreSQL refuses NUL in text: a clear 400 instead of a 500.
  if (input.email.includes('\0') || input.name?.includes('\0')) errors.push({ field: input.email.includes('\0') ? 'email' : 'name', message: 'must not contain NUL characters' })
  if (errors.length) throw new ValidationFailed(errors.map((e) => `${e.field} ${e.message}`).join('; ') + '.', errors)
}

export async function createOrganizationWithAdmin(
  db: Kysely<DB>,
  input: { name: string; adminEmail: string; adminPassword: string; adminName?: string },
): Promise<{ orgId: string; userId: string }> {
  const name = input.name.trim()
  if (name === '' || name.length > 200) throw new ValidationFailed('name must be 1 to 200 characters.', [{ field: 'name', message: 'must be 1 to 200 characters' }])
  checkPersonInput({ email: input.adminEmail, password: input.adminPassword, name: input.adminName })
  const orgId = uuidv7()
  const existing = await findUserByEmail(db, input.adminEmail)
  if (existing && !(await verifyPassword(input.adminPassword, existing.password_hash))) {
    throw new Conflict('A user with this email already exists with another password; give that password to add them to the new organization.')
  }
  const passwordHash = existing ? null : await hashPassword(input.adminPassword)
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('organizations').values({ id: orgId, name }).execute()
    const userId = existing?.id ?? uuidv7()
    if (!existing) {
      await trx
        .insertInto('users')
        .values({
          id: userId,
          email: input.adminEmail.trim(),
          email_key: emailKey(input.adminEmail),
          name: (input.adminName ?? input.adminEmail.split('@')[0]).trim(),
          password_hash: passwordHash!,
        })
        .execute()
    }
    await trx.insertInto('memberships').values({ org_id: orgId, user_id: userId, role: 'admin' }).execute()
    return { orgId, userId }
  })
}

export async function addUserToOrganization(
  db: Kysely<DB>,
  orgId: string,
  input: { email: string; password: string; role: 'admin' | 'member'; name?: string },
): Promise<{ userId: string }> {
  checkPersonInput(input)
  if (!(await findOrganization(db, orgId))) throw new NotFound('Organization')
  const existing = await findUserByEmail(db, input.email)
  if (existing) {
    if (!(await verifyPassword(input.password, existing.password_hash))) {
      throw new Conflict('A user with this email already exists with another password.')
    }
    const added = await db
      .insertInto('memberships')
      .values({ org_id: orgId, user_id: existing.id, role: input.role })
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .executeTakeFirst()
    if (!added) throw new Conflict('This user is already a member of the organization.')
    return { userId: existing.id }
  }
  const userId = uuidv7()
  const passwordHash = await hashPassword(input.password)
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values({ id: userId, email: input.email.trim(), email_key: emailKey(input.email), name: (input.name ?? input.email.split('@')[0]).trim(), password_hash: passwordHash })
      .execute()
    await trx.insertInto('memberships').values({ org_id: orgId, user_id: userId, role: input.role }).execute()
  })
  return { userId }
}
