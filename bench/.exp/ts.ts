import { CompiledQuery } from 'kysely'
import { openEmbedded } from '../../src/db/connect.ts'
const database = await openEmbedded('/tmp/exp-emb')
const db = database.db
const exprs: Record<string, string> = {
  none: `r.id::text`,
  to_char: `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  overlay: `overlay(date_trunc('second', r.created_at AT TIME ZONE 'UTC')::text placing 'T' from 11 for 1) || '.' || lpad((floor(extract(milliseconds from r.created_at))::int % 1000)::text, 3, '0') || 'Z'`,
  json: `to_json(r.created_at AT TIME ZONE 'UTC')::text`,
  text: `(r.created_at AT TIME ZONE 'UTC')::text`,
  date_to_char: `to_char(r.close_date, 'YYYY-MM-DD')`,
  date_text: `r.close_date::text`,
}
for (let k = 0; k < 2; k++) for (const [name, e] of Object.entries(exprs)) {
  const t = performance.now()
  const r = await db.executeQuery<any>(CompiledQuery.raw(`SELECT sum(length(${e})) AS s FROM opportunities r`))
  console.log(name.padEnd(14), ((performance.now() - t) * 1000 / 100000).toFixed(2), 'µs/row', r.rows[0].s)
}
const check = await db.executeQuery<any>(CompiledQuery.raw(`SELECT count(*) AS bad FROM opportunities r WHERE ${exprs.to_char} <> ${exprs.overlay}`))
console.log('mismatch', check.rows[0])
const sample = await db.executeQuery<any>(CompiledQuery.raw(`SELECT ${exprs.to_char} a, ${exprs.overlay} b, r.created_at::text c FROM opportunities r LIMIT 3`))
console.log(sample.rows)
await database.close()
