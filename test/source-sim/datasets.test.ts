// Every fixture project loads through `--dataset <folder>` with every `@ref` resolved to an
// existing record, and the simulator serves exactly the records the files hold.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, start, token } from './helpers.ts'
import { DEFAULTS } from '../../tools/source-sim/options.ts'

const TREE = join(DEFAULTS.fixturesDir, 'sobject-tree')
const projects = existsSync(TREE) ? readdirSync(TREE).sort() : []

interface Rec { attributes: { type: string }; [k: string]: unknown }
function fileRecords(dir: string): Rec[] {
  const out: Rec[] = []
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const j = JSON.parse(readFileSync(join(dir, f), 'utf8'))
    if (!Array.isArray(j) && Array.isArray(j.records)) out.push(...j.records)
  }
  return out
}

describe.skipIf(projects.length === 0)('sObject-tree datasets', () => {
  it('finds the nine fixture projects', () => {
    expect(projects).toHaveLength(9)
    expect(projects.reduce((n, p) => n + fileRecords(join(TREE, p)).length, 0)).toBe(1953)
  })

  it.each(projects)('%s loads: counts match the files and every reference resolves', async (project) => {
    const dir = join(TREE, project)
    const records = fileRecords(dir)
    const sim = await start({ dataset: dir })
    try {
      const tok = await token(sim)
      const q = async (soql: string) => {
        const r = await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent(soql)}`)
        expect(r.status, `${soql}: ${JSON.stringify(r.body)}`).toBe(200)
        return r.body as { totalSize: number; records: Array<Record<string, unknown>> }
      }
      const byType = new Map<string, Rec[]>()
      for (const r of records) byType.set(r.attributes.type, [...(byType.get(r.attributes.type) ?? []), r])
      const rc = (await api(sim, tok, `/services/data/v62.0/limits/recordCount?sObjects=${[...byType.keys()].join(',')}`)).body
      for (const [type, list] of byType) expect(rc.sObjects.find((s: { name: string }) => s.name.toLowerCase() === type.toLowerCase())?.count, type).toBe(list.length)
      const sobjects = (await api(sim, tok, '/services/data/v62.0/sobjects')).body.sobjects as Array<{ name: string; keyPrefix: string }>
      // Reference fields are those holding `@Ref` values in the files.
      for (const [type, list] of byType) {
        const refFields = new Set(list.flatMap((r) => Object.entries(r).filter(([, v]) => typeof v === 'string' && v.startsWith('@')).map(([k]) => k)))
        for (const field of refFields) {
          const rows = (await q(`SELECT Id, ${field} FROM ${type}`)).records
          const canonical = Object.keys(rows[0]).find((k) => k.toLowerCase() === field.toLowerCase())!
          const expected = list.filter((r) => typeof r[field] === 'string' && String(r[field]).startsWith('@')).length
          const ids = rows.map((r) => r[canonical]).filter((v): v is string => typeof v === 'string')
          expect(ids.length, `${type}.${field}`).toBe(expected)
          // Each referenced id must exist in the object its key prefix names.
          const byPrefix = new Map<string, string[]>()
          for (const id of new Set(ids)) {
            expect(id).toMatch(/^[a-zA-Z0-9]{18}$/)
            byPrefix.set(id.slice(0, 3), [...(byPrefix.get(id.slice(0, 3)) ?? []), id])
          }
          for (const [prefix, list] of byPrefix) {
            const target = sobjects.find((s) => s.keyPrefix === prefix)!
            for (let k = 0; k < list.length; k += 200) {
              const chunk = list.slice(k, k + 200)
              const found = await q(`SELECT Id FROM ${target.name} WHERE Id IN (${chunk.map((x) => `'${x}'`).join(',')})`)
              expect(found.totalSize, `${type}.${field} -> ${target.name}`).toBe(chunk.length)
            }
          }
        }
      }
      // Audit fields are filled.
      const first = [...byType.keys()][0]
      const row = (await q(`SELECT Id, CreatedDate, LastModifiedDate, SystemModstamp FROM ${first} LIMIT 1`)).records[0]
      for (const k of ['CreatedDate', 'LastModifiedDate', 'SystemModstamp']) expect(row[k]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/)
    } finally {
      await sim.close()
    }
  })

  it('matches field names case-insensitively (apex-recipes uses accountId) and serves parent fields', async () => {
    const sim = await start({ dataset: 'apex-recipes' })
    try {
      const tok = await token(sim)
      const r = (await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent('SELECT Id, AccountId, Account.Name, firstname FROM Contact LIMIT 3')}`)).body
      expect(r.records[0].AccountId).toMatch(/^001/)
      expect(r.records[0].Account.Name).toBeTruthy()
      expect(r.records[0]).toHaveProperty('FirstName')
      const d = (await api(sim, tok, '/services/data/v62.0/sobjects/Campaign/describe')).body
      expect(d.keyPrefix).toBe('701')
    } finally {
      await sim.close()
    }
  })

  it('describes custom objects and fields inferred from the files (easy-spaces-lwc)', async () => {
    const sim = await start({ dataset: 'easy-spaces-lwc' })
    try {
      const tok = await token(sim)
      const d = (await api(sim, tok, '/services/data/v62.0/sobjects/Space__c/describe')).body
      expect(d.custom).toBe(true)
      const market = d.fields.find((f: { name: string }) => f.name === 'Market__c')
      expect(market).toMatchObject({ type: 'reference', referenceTo: ['Market__c'], relationshipName: 'Market__r' })
      const m = (await api(sim, tok, '/services/data/v62.0/sobjects/Market__c/describe')).body
      const rel = m.childRelationships.find((c: { childSObject: string }) => c.childSObject === 'Space__c')
      const sub = (await api(sim, tok, `/services/data/v62.0/query?q=${encodeURIComponent(`SELECT Name, (SELECT Name FROM ${rel.relationshipName}) FROM Market__c`)}`)).body
      expect(sub.records.some((r: Record<string, { totalSize: number } | null>) => (r[rel.relationshipName]?.totalSize ?? 0) > 0)).toBe(true)
    } finally {
      await sim.close()
    }
  })
})
