// Owns loading a folder of sObject-tree files (`sf data import tree` format) into an org: every
// `{"records":[...]}` file is loaded once (plan files only list them), `@Ref` values are resolved
// to the referenced record's id, field names are matched case-insensitively to the schema
// (`accountId` -> AccountId), ids with the right key prefix and audit dates are assigned.
// When two files define the same referenceId (coral-cloud's normal and -large variants), the
// first file in name order wins, so every reference still resolves.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeId } from '../ids.ts'
import { SchemaIndex } from '../schema/registry.ts'
import type { ObjectDef } from '../schema/types.ts'
import { DAY, sfDateTime } from './gen-util.ts'
import { inferField, inferObject, sample, type FieldSample } from './infer-schema.ts'
import { MemoryObject, type Row } from './memory.ts'
import type { DataSet } from './types.ts'

interface TreeRecord { attributes: { type: string; referenceId?: string }; [k: string]: unknown }

const KNOWN_PREFIX: Record<string, string> = { Campaign: '701', Solution: '501', Asset: '02i', Pricebook2: '01s' }
const BASE = Date.UTC(2024, 0, 1)

export interface TreeOrg { defs: ObjectDef[]; data: DataSet; unresolved: string[] }

function readRecords(dir: string): TreeRecord[] {
  const out: TreeRecord[] = []
  const walk = (records: TreeRecord[]) => {
    for (const r of records) {
      out.push(r)
      // Nested child records (`"Contacts": {"records": [...]}`) are allowed by the format.
      for (const v of Object.values(r)) if (v && typeof v === 'object' && Array.isArray((v as { records?: unknown }).records)) walk((v as { records: TreeRecord[] }).records)
    }
  }
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown
    if (json && typeof json === 'object' && !Array.isArray(json) && Array.isArray((json as { records?: unknown }).records)) walk((json as { records: TreeRecord[] }).records)
  }
  return out
}

export function loadTree(dir: string, pod: string, builtin: ObjectDef[]): TreeOrg {
  const records = readRecords(dir)
  const schema = new SchemaIndex(builtin)
  const byType = new Map<string, TreeRecord[]>()
  const refs = new Map<string, { type: string; index: number }>()
  for (const r of records) {
    const known = schema.object(r.attributes.type)
    const type = known ? known.def.name : r.attributes.type
    let list = byType.get(type)
    if (!list) byType.set(type, (list = []))
    const ref = r.attributes.referenceId
    if (ref && !refs.has(ref)) refs.set(ref, { type, index: list.length })
    list.push(r)
  }
  // Key prefixes: built-in ones, a few known standard ones, custom objects a02, a03, ...
  const prefix = new Map<string, string>()
  let custom = 2
  for (const type of byType.keys()) {
    const p = schema.object(type)?.def.keyPrefix ?? KNOWN_PREFIX[type] ?? `a${String(custom++).padStart(2, '0')}`
    prefix.set(type, p)
  }
  const refId = (ref: string) => {
    const t = refs.get(ref)
    return t ? makeId(prefix.get(t.type)!, pod, t.index) : null
  }
  // Pass 1: canonical field names and samples for fields the schema lacks.
  const samples = new Map<string, Map<string, FieldSample>>()
  const canon = new Map<string, Map<string, string>>()
  for (const [type, list] of byType) {
    const info = schema.object(type)
    const names = new Map<string, string>()
    const s = new Map<string, FieldSample>()
    for (const r of list) {
      for (const [k, v] of Object.entries(r)) {
        if (k === 'attributes' || (v && typeof v === 'object')) continue
        const lower = k.toLowerCase()
        const name = info?.fields.get(lower)?.name ?? names.get(lower) ?? k
        names.set(lower, name)
        if (info?.fields.has(lower)) continue
        const target = typeof v === 'string' && v.startsWith('@') ? refs.get(v.slice(1))?.type : undefined
        s.set(name, sample(s.get(name), v, target))
      }
    }
    canon.set(type, names)
    samples.set(type, s)
  }
  // Schema: extend built-in objects with inferred fields, infer the unknown objects.
  const defs = builtin.map((d) => ({ ...d, fields: [...d.fields] }))
  const defByName = new Map(defs.map((d) => [d.name, d]))
  for (const [type, s] of samples) {
    const def = defByName.get(type)
    if (!def) {
      const inferred = inferObject(type, prefix.get(type)!, s)
      defs.push(inferred)
      defByName.set(type, inferred)
      continue
    }
    const at = def.fields.findIndex((x) => x.name === 'OwnerId' || x.name === 'CreatedDate')
    def.fields.splice(at, 0, ...[...s].map(([name, smp]) => inferField(name, smp, def)))
  }
  // Pass 2: rows.
  const unresolved: string[] = []
  const data: DataSet = new Map()
  const users: Row[] = ['Integration', 'Owner'].map((n, i) => ({
    Id: makeId('005', pod, i), Username: `${n.toLowerCase()}@tree.example.com`, LastName: n, FirstName: 'Tree', Name: `Tree ${n}`,
    Email: `${n.toLowerCase()}@tree.example.com`, Alias: n.slice(0, 8), IsActive: true, UserType: 'Standard', CreatedDate: sfDateTime(BASE),
  }))
  data.set('User', new MemoryObject(users))
  for (const [type, list] of byType) {
    const def = defByName.get(type)!
    const hasField = new Set(def.fields.map((x) => x.name))
    const names = canon.get(type)!
    const rows = list.map((r, i): Row => {
      const ms = BASE + i * 3_600_000
      const row: Row = { Id: makeId(prefix.get(type)!, pod, i), IsDeleted: false, CreatedDate: sfDateTime(ms), LastModifiedDate: sfDateTime(ms + DAY), SystemModstamp: sfDateTime(ms + DAY), CreatedById: users[0].Id, LastModifiedById: users[0].Id }
      if (hasField.has('OwnerId')) row.OwnerId = users[1].Id
      for (const [k, v] of Object.entries(r)) {
        if (k === 'attributes' || (v && typeof v === 'object')) continue
        const name = names.get(k.toLowerCase()) ?? k
        if (typeof v === 'string' && v.startsWith('@')) {
          const id = refId(v.slice(1))
          if (!id) unresolved.push(`${type}.${name}=${v}`)
          row[name] = id
        } else row[name] = v
      }
      if ((type === 'Contact' || type === 'Lead') && row.Name === undefined) row.Name = [row.FirstName, row.LastName].filter(Boolean).join(' ')
      if (type === 'Case' && row.CaseNumber === undefined) row.CaseNumber = String(i + 1).padStart(8, '0')
      return row
    })
    data.set(type, new MemoryObject(rows))
  }
  return { defs, data, unresolved }
}
