import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts'
import { hitRateLimit, pruneRateLimits } from '../../src/shared/rate-limit.ts'
import { pruneExpiredOAuthRows } from '../../src/oauth/token.repository.ts'

describe('housekeeping deletes', () => {
  let tdb: TestDatabase
  beforeAll(async () => {
    tdb = await createTestDatabase('pglite')
  })
  afterAll(() => tdb?.drop())

  it('old rate-limit windows and long-expired codes, keeping current ones', async () => {
    const db = tdb.database.db
    const now = new Date()
    await hitRateLimit(db, 'k', 10, 60, new Date(now.getTime() - 2 * 3600 * 1000))
    await hitRateLimit(db, 'k', 10, 60, now)
    await pruneRateLimits(db, new Date(now.getTime() - 3600 * 1000))
    expect((await db.selectFrom('rate_limit_counters').selectAll().execute()).length).toBe(1)
    await sql`INSERT INTO organizations (id, name) VALUES ('0190d6f0-0000-7000-8000-000000000001', 'o')`.execute(db)
    await sql`INSERT INTO users (id, email, email_key, name, password_hash) VALUES ('0190d6f0-0000-7000-8000-000000000002', 'u@x.test', 'u@x.test', 'u', 'x')`.execute(db)
    await sql`INSERT INTO memberships (org_id, user_id, role) VALUES ('0190d6f0-0000-7000-8000-000000000001', '0190d6f0-0000-7000-8000-000000000002', 'admin')`.execute(db)
    await sql`INSERT INTO oauth_clients (client_id, name, redirect_uris, scopes, auth_method, registration) VALUES ('crm_x', 'x', ARRAY['https://a.test'], ARRAY['crm:read'], 'none', 'dynamic')`.execute(db)
    for (const [hash, age] of [[Buffer.from([1]), 3], [Buffer.from([2]), 0]] as const) {
      await sql`INSERT INTO oauth_codes (code_hash, org_id, client_id, user_id, redirect_uri, redirect_uri_sent, code_challenge, scopes, resource, created_at, expires_at)
        VALUES (${hash}, '0190d6f0-0000-7000-8000-000000000001', 'crm_x', '0190d6f0-0000-7000-8000-000000000002', 'https://a.test', true, 'c', ARRAY['crm:read'], 'r',
        now() - make_interval(days => ${age}), now() - make_interval(days => ${age}))`.execute(db)
    }
    await pruneExpiredOAuthRows(db, now)
    expect((await db.selectFrom('oauth_codes').select('code_hash').execute()).length).toBe(1)
  })
})
