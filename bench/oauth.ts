/**
 * Benchmark of the OAuth server (issue: OAuth). On the records benchmark's PostgreSQL database
 * (1,000,000 opportunities; run bench:records once first, or this seeds it):
 *  - code exchanges per second at POST /api/oauth/token (fresh codes, PKCE, client_secret_post);
 *  - `GET /api/v1/opportunities?limit=50` with a bearer token beside the same with a session
 *    cookie (the foundation's figure) and the bearer lookup + keyset page through pgbench.
 *
 *   npm run bench:oauth      (BENCH_SECONDS=15 by default)
 */
import crypto from 'node:crypto'
import autocannon from 'autocannon'
import pg from 'pg'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { createOrgClient } from '../src/oauth/index.ts'
import { kindsByName } from '../src/records/kinds/index.ts'
import { recordJsonText } from '../src/records/record-sql.ts'
import { sha256 } from '../src/shared/ids.ts'
import { FIND_BEARER_SQL } from '../src/oauth/token.repository.ts'
import { ensureDatabase, fmt, load, pgbench, startServiceProcess } from './lib.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)

async function main() {
  const url = await ensureDatabase('cairn_bench_records', false)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const big = (await client.query(`SELECT o.id, m.user_id FROM organizations o JOIN memberships m ON m.org_id = o.id WHERE o.name = 'Bench 0'`)).rows[0]
  if (!big) throw new Error('Run `npm run bench:records` first: it seeds the database this benchmark uses.')
  const orgId: string = big.id
  const userId: string = big.user_id
  const database = await openPostgres(url)
  await migrateToLatest(database)
  const session = await createSession(database.db, userId, orgId, 3600)
  const app = await createOrgClient(database.db, orgId, { name: 'Bench client', redirectUris: ['https://bench.example.test/cb'], scopes: ['crm:read', 'crm:write', 'erp:read'] }, 'settings')
  await database.close()

  const publicUrl = 'http://127.0.0.1:3710'
  const service = await startServiceProcess({ DATABASE_URL: url, PUBLIC_URL: publicUrl, OAUTH_TOKEN_RATE_PER_CLIENT: '100000000', OAUTH_TOKEN_RATE_PER_ADDRESS: '100000000' }, 3710)

  // Codes as the authorize endpoint would store them, minted in bulk so the run measures the exchange.
  const verifier = crypto.randomBytes(32).toString('base64url')
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url')
  const codes: string[] = []
  for (let i = 0; i < 60_000; i++) codes.push(crypto.randomBytes(32).toString('base64url'))
  for (let i = 0; i < codes.length; i += 5000) {
    const chunk = codes.slice(i, i + 5000)
    await client.query(
      `INSERT INTO oauth_codes (code_hash, org_id, client_id, user_id, redirect_uri, redirect_uri_sent, code_challenge, scopes, resource, created_at, expires_at)
       SELECT decode(h, 'hex'), $1, $2, $3, 'https://bench.example.test/cb', true, $4, ARRAY['crm:read','crm:write','erp:read'], $5, now(), now() + interval '10 minutes'
       FROM unnest($6::text[]) h`,
      [orgId, app.client_id, userId, challenge, publicUrl, chunk.map((c) => sha256(c).toString('hex'))],
    )
  }
  let next = 0
  const exchange = await autocannon({
    url: `${service.url}/api/oauth/token`,
    connections: 16,
    duration: Math.min(SECONDS, 10),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        setupRequest: (req: any) => ({
          ...req,
          body: new URLSearchParams({ grant_type: 'authorization_code', code: codes[next++ % codes.length], redirect_uri: 'https://bench.example.test/cb', code_verifier: verifier, client_id: app.client_id, client_secret: app.client_secret }).toString(),
        }),
      },
    ],
  } as any)
  console.log(`Token endpoint, code exchanges (16 connections): ${fmt(exchange.requests.average)} /s   p50 ${fmt(exchange.latency.p50, 1)} ms   p99 ${fmt(exchange.latency.p99, 1)} ms   non-2xx ${exchange.non2xx}`)
  if (next > codes.length) console.log('  (warning: codes reused, so some exchanges were replays)')

  // One access token for the list runs.
  const tokenRes = await fetch(`${service.url}/api/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code: codes[codes.length - 1], redirect_uri: 'https://bench.example.test/cb', code_verifier: verifier, client_id: app.client_id, client_secret: app.client_secret }),
  })
  const { access_token } = (await tokenRes.json()) as { access_token: string }
  if (!access_token) throw new Error(`no token: ${tokenRes.status}`)

  const listUrl = `${service.url}/api/v1/opportunities?limit=50`
  await load(listUrl, { authorization: `Bearer ${access_token}` }, 3)
  // Alternate the two, twice each, so that drift on this noisy machine hits both alike.
  const runs = { bearer: [] as number[], cookie: [] as number[], bearerP50: [] as number[], cookieP50: [] as number[], errors: 0 }
  for (let i = 0; i < 2; i++) {
    const b = await load(listUrl, { authorization: `Bearer ${access_token}` }, SECONDS / 2)
    const c = await load(listUrl, { cookie: `${SESSION_COOKIE}=${session}` }, SECONDS / 2)
    runs.bearer.push(b.rps), runs.cookie.push(c.rps), runs.bearerP50.push(b.p50), runs.cookieP50.push(c.p50)
    runs.errors += b.non2xx + c.non2xx
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
  const bearer = { rps: avg(runs.bearer), p50: avg(runs.bearerP50), p99: NaN, non2xx: runs.errors }
  const cookie = { rps: avg(runs.cookie), p50: avg(runs.cookieP50), p99: NaN }
  await service.stop()

  const kind = kindsByName.opportunity
  const hash = sha256(access_token).toString('hex')
  const sqlScript = `${FIND_BEARER_SQL.replace('$1', `'\\x${hash}'`).replace('CAST($2 AS timestamptz)', 'now()')};
SELECT r.id, ${recordJsonText(kind, 'r')} AS j FROM opportunities r WHERE r.org_id = '${orgId}' ORDER BY r.id DESC LIMIT 51;
`
  const base = pgbench(url, sqlScript, SECONDS)
  await client.query('DELETE FROM oauth_codes WHERE client_id = $1', [app.client_id])
  await client.end()

  console.log(`\nList endpoint (32 connections, ${SECONDS} s):`)
  console.log(`  session cookie  ${fmt(cookie.rps).padStart(6)} req/s   p50 ${fmt(cookie.p50, 1)} ms`)
  console.log(`  bearer token    ${fmt(bearer.rps).padStart(6)} req/s   p50 ${fmt(bearer.p50, 1)} ms   errors ${bearer.non2xx}`)
  console.log(`  pgbench (bearer lookup + page) ${fmt(base.tps)} tx/s`)
  const cost = 1 - bearer.rps / cookie.rps
  console.log(`  bearer vs session: ${fmt(100 * cost, 1)}% cost (target < 15%)   bearer API/pgbench ${fmt(bearer.rps / base.tps, 2)}`)
}

await main()
