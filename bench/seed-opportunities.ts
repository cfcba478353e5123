/**
 * The opportunities the list benchmarks read: 1,000,000 over 10 organizations on PostgreSQL, one of
 * them holding 500,000, with UUIDv7 ids built from created_at (one row per 10 ms going back in
 * time). Seeds only when the database does not already hold exactly that; answers the big
 * organization and its administrator.
 */
import pg from 'pg'
import { CompiledQuery } from 'kysely'
import { openEmbedded, openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { insertAccessToken } from './bearer-token.ts'
import { fmt } from './lib.ts'

export const TOTAL = 1_000_000

/**
 * $3 opportunities for organization $1 owned by $2, with UUIDv7 ids built in SQL from the row's
 * created_at (one row per 10 ms going back in time). Runs on PostgreSQL and on the embedded database.
 */
export const INSERT_OPPORTUNITIES_SQL = `INSERT INTO opportunities (org_id, id, created_at, updated_at, name, stage, amount, currency, probability, close_date, owner_id)
  SELECT $1, (substr(h,1,8)||'-'||substr(h,9,4)||'-7'||substr(r,1,3)||'-8'||substr(r,4,3)||'-'||substr(r,7,12))::uuid,
         ts, ts, 'Deal ' || g, (ARRAY['prospecting','qualification','needs_analysis','proposal','negotiation','closed_won','closed_lost'])[1 + g % 7],
         round((random() * 100000)::numeric, 2), 'USD', g % 101, (ts + interval '30 days')::date, $2
  FROM (SELECT g, ts, lpad(to_hex((extract(epoch FROM ts) * 1000)::bigint), 12, '0') AS h, md5(g::text || random()::text) AS r
        FROM (SELECT g, timestamptz '2026-01-01' - g * interval '10 milliseconds' AS ts FROM generate_series(1, $3::int) g) s) t`
const BIG_ORG = 500_000
const ORGS = 10

export async function seedOpportunities(url: string): Promise<{ orgId: string; userId: string }> {
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const have = Number((await client.query('SELECT count(*) AS n FROM opportunities')).rows[0].n)
  let big = (await client.query(`SELECT o.id, m.user_id FROM organizations o JOIN memberships m ON m.org_id = o.id WHERE o.name = 'Bench 0'`)).rows[0]
  if (have !== TOTAL || !big) {
    console.log(`Seeding ${fmt(TOTAL)} opportunities over ${ORGS} organizations...`)
    const t0 = performance.now()
    await client.query('TRUNCATE organizations, users, opportunities CASCADE')
    const orgs: { orgId: string; userId: string }[] = []
    for (let i = 0; i < ORGS; i++) orgs.push(await createOrganizationWithAdmin(database.db, { name: `Bench ${i}`, adminEmail: `bench${i}@bench.test`, adminPassword: 'bench-password' }))
    const rest = Math.floor((TOTAL - BIG_ORG) / (ORGS - 1))
    for (let i = 0; i < ORGS; i++) {
      const n = i === 0 ? BIG_ORG : i === ORGS - 1 ? TOTAL - BIG_ORG - rest * (ORGS - 2) : rest
      await client.query(INSERT_OPPORTUNITIES_SQL, [orgs[i].orgId, orgs[i].userId, n])
    }
    await client.query('VACUUM ANALYZE opportunities')
    console.log(`Seeded in ${fmt((performance.now() - t0) / 1000, 1)} s`)
    big = { id: orgs[0].orgId, user_id: orgs[0].userId }
  }
  await client.end()
  await database.close()
  return { orgId: big.id, userId: big.user_id }
}

/**
 * One organization with `count` opportunities in a new embedded data folder, analyzed (the
 * embedded database runs no autovacuum). Answers the organization, its administrator and an
 * access token bound to `resource`.
 */
export async function seedEmbeddedOpportunities(dataDir: string, count: number, resource: string): Promise<{ orgId: string; userId: string; token: string }> {
  const database = await openEmbedded(dataDir)
  try {
    await migrateToLatest(database)
    const { orgId, userId } = await createOrganizationWithAdmin(database.db, { name: 'Bench embedded', adminEmail: 'embedded@bench.test', adminPassword: 'bench-password' })
    await database.db.executeQuery(CompiledQuery.raw(INSERT_OPPORTUNITIES_SQL, [orgId, userId, count]))
    await database.execScript('ANALYZE')
    return { orgId, userId, token: await insertAccessToken(database.db, orgId, userId, ['crm:read', 'erp:read'], resource) }
  } finally {
    await database.close()
  }
}
