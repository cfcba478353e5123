import fs from 'node:fs'
import { CompiledQuery } from 'kysely'
import { openEmbedded } from '../../src/db/connect.ts'
import { seedEmbeddedOpportunities } from '../seed-opportunities.ts'
import { opportunityKind } from '../../src/records/kinds/index.ts'
import { listPageSql, pageEnvelopeSql, bind } from '../../src/records/record.repository.ts'

const dir = '/tmp/exp-emb'
if (!fs.existsSync(dir)) await seedEmbeddedOpportunities(dir, 100_000, 'http://x')
const database = await openEmbedded(dir)
const db = database.db
const org = (await db.executeQuery<{ id: string }>(CompiledQuery.raw('SELECT id FROM organizations LIMIT 1'))).rows[0].id

async function time(name: string, fn: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 200; i++) await fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) await fn()
  console.log(name, ((performance.now() - t) * 1000 / n).toFixed(0), 'µs')
}
const params: unknown[] = [org]
const current = pageEnvelopeSql(listPageSql(opportunityKind, { limit: 50, filters: [], ranges: [] } as any, bind(params), '$1'), 50)
const cols = ['id', ...opportunityKind.fields.map((f) => f.name), 'src_id', 'custom_fields', 'created_at', 'updated_at']
const raw = `SELECT ${cols.map((c) => 'r.' + c).join(', ')} FROM opportunities r WHERE r.org_id = $1 ORDER BY r.id DESC LIMIT 51`
const rawText = `SELECT r.id, r.name, r.account_id, r.stage, r.amount::text AS amount, r.currency, r.probability, r.close_date::text AS close_date, r.type, r.lead_source, r.next_step, r.description, r.owner_id, r.src_id, r.custom_fields::text AS custom_fields, (extract(epoch from r.created_at)*1000)::float8 AS created_at, (extract(epoch from r.updated_at)*1000)::float8 AS updated_at FROM opportunities r WHERE r.org_id = $1 ORDER BY r.id DESC LIMIT 51`
const idsOnly = `SELECT r.id FROM opportunities r WHERE r.org_id = $1 ORDER BY r.id DESC LIMIT 51`
const noToChar = current.replaceAll(/to_char\(([^,]+?) AT TIME ZONE 'UTC', '[^']+'\)/g, '$1::text').replaceAll(/to_char\((r\.close_date), 'YYYY-MM-DD'\)/g, '$1::text')
console.log(noToChar.slice(0, 600))
for (let k = 0; k < 2; k++) {
  await time('current envelope', () => db.executeQuery(CompiledQuery.raw(current, params)))
  await time('no to_char envelope', () => db.executeQuery(CompiledQuery.raw(noToChar, params)))
  await time('raw rows', () => db.executeQuery(CompiledQuery.raw(raw, params)))
  await time('raw rows text', () => db.executeQuery(CompiledQuery.raw(rawText, params)))
  await time('raw rows text + JSON', async () => { const r = await db.executeQuery<any>(CompiledQuery.raw(rawText, params)); return JSON.stringify({ data: r.rows.slice(0, 50).map((x) => ({ ...x, created_at: new Date(x.created_at).toISOString(), updated_at: new Date(x.updated_at).toISOString(), custom_fields: JSON.parse(x.custom_fields) })) }) })
  await time('ids only', () => db.executeQuery(CompiledQuery.raw(idsOnly, params)))
}
await database.close()
