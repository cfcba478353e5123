// Owns shaping result records exactly as the platform does: `attributes {type, url}` first,
// fields in SELECT order, parent fields as nested objects with their own attributes (null when
// the lookup is empty), child subqueries as nested QueryResults, or null when there are none.
import type { ObjectData } from '../data/types.ts'
import type { ObjectInfo } from '../schema/registry.ts'
import type { Plan } from './compile.ts'
import { dataOf, fieldValue, follow, sortComparator, test, type EvalCtx } from './evaluate.ts'

export interface ProjectCtx extends EvalCtx { version: string; scanAll: boolean }

type Rec = Record<string, unknown>

const attributes = (ctx: ProjectCtx, type: string, id: string) => ({ type, url: `/services/data/v${ctx.version}/sobjects/${type}/${id}` })

const childIndexes = new WeakMap<ObjectData, Map<string, Map<string, number[]>>>()

/** Children through a lookup: the data source's fast path, else a lazily built index. */
function children(d: ObjectData, field: string, parentId: string): ArrayLike<number> {
  const fast = d.childrenOf?.(field, parentId)
  if (fast) return fast
  let byField = childIndexes.get(d)
  if (!byField) childIndexes.set(d, (byField = new Map()))
  let idx = byField.get(field)
  if (!idx) {
    idx = new Map()
    for (let i = 0; i < d.total; i++) {
      const v = d.value(i, field)
      if (typeof v !== 'string') continue
      let list = idx.get(v)
      if (!list) idx.set(v, (list = []))
      list.push(i)
    }
    byField.set(field, idx)
  }
  return idx.get(parentId) ?? []
}

function subquery(ctx: ProjectCtx, plan: Plan, field: string, parentId: string): Rec | null {
  const info = plan.object
  const d = dataOf(ctx, info.def.name)
  const found = children(d, field, parentId)
  let rows: number[] = []
  for (let k = 0; k < found.length; k++) {
    const i = found[k]
    if (!ctx.scanAll && i >= d.live) continue
    if (plan.where && !test(ctx, info, d, i, plan.where)) continue
    rows.push(i)
  }
  if (plan.orderBy.length) rows.sort(sortComparator(ctx, info, d, plan.orderBy))
  rows = rows.slice(plan.offset, plan.limit === undefined ? undefined : plan.offset + plan.limit)
  if (rows.length === 0) return null
  return { totalSize: rows.length, done: true, records: rows.map((i) => project(ctx, plan, info, d, i)) }
}

export function project(ctx: ProjectCtx, plan: Plan, info: ObjectInfo, d: ObjectData, i: number): Rec {
  const id = d.id(i)
  const out: Rec = { attributes: attributes(ctx, info.def.name, id) }
  // Nested parent objects already built for this record, with where they point.
  const nested = new Map<Rec, { info: ObjectInfo; data: ObjectData; index: number }>()
  for (const f of plan.fields) {
    if (f.kind === 'sub') {
      out[f.rel.relationshipName] = subquery(ctx, f.plan, f.rel.field, id)
      continue
    }
    if (f.kind === 'typeof') {
      const target = follow(ctx, d, i, f.rel.name)
      if (!target) { out[f.rel.relationshipName!] = null; continue }
      const obj: Rec = { attributes: attributes(ctx, target.info.def.name, target.data.id(target.index)) }
      for (const fd of f.branches.get(target.info.def.name) ?? f.otherwise) {
        obj[fd.name] = target.info.fields.has(fd.name.toLowerCase()) ? fieldValue(target.data, target.index, fd.name) : null
      }
      out[f.rel.relationshipName!] = obj
      continue
    }
    const { rels, field } = f.path
    let container = out
    let at = { info, data: d, index: i }
    let dead = false
    for (const rel of rels) {
      const key = rel.relationshipName!
      let next = container[key] as Rec | null | undefined
      if (next === undefined) {
        const target = follow(ctx, at.data, at.index, rel.name)
        if (!target) { container[key] = null; dead = true; break }
        next = { attributes: attributes(ctx, target.info.def.name, target.data.id(target.index)) }
        container[key] = next
        nested.set(next, target)
      }
      if (next === null) { dead = true; break }
      at = nested.get(next)!
      container = next
    }
    if (dead) continue
    const known = rels.length === 0 || at.info.fields.has(field.name.toLowerCase())
    container[field.name] = known ? fieldValue(at.data, at.index, field.name) : null
  }
  return out
}

// Serving pages is dominated by serialisation: for plans of plain fields (the importer's keyset
// reads) each record is written straight to JSON text with precomputed keys, skipping the object.
const flatKeys = new WeakMap<Plan, string[] | null>()

function keysOf(plan: Plan): string[] | null {
  let keys = flatKeys.get(plan)
  if (keys === undefined) {
    keys = plan.fields.every((f) => f.kind === 'path' && f.path.rels.length === 0)
      ? plan.fields.map((f) => `,${JSON.stringify((f as { path: { field: { name: string } } }).path.field.name)}:`)
      : null
    flatKeys.set(plan, keys)
  }
  return keys
}

/** JSON string literal; strings needing no escapes (the vast majority) skip JSON.stringify. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/
function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"'
}

function jsonValue(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'string') return quote(v)
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return JSON.stringify(v)
}

const getterCache = new WeakMap<ObjectData, WeakMap<Plan, Array<((i: number) => unknown) | null>>>()
/** Per-field value functions resolved once per (plan, data), `null` standing for Id. */
function gettersOf(plan: Plan, d: ObjectData): Array<((i: number) => unknown) | null> {
  let byPlan = getterCache.get(d)
  if (!byPlan) getterCache.set(d, (byPlan = new WeakMap()))
  let g = byPlan.get(plan)
  if (!g) {
    g = plan.fields.map((f) => {
      const name = (f as { path: { field: { name: string } } }).path.field.name
      if (name === 'Id') return null
      const direct = d.getter?.(name)
      return direct ?? ((i: number) => fieldValue(d, i, name))
    })
    byPlan.set(plan, g)
  }
  return g
}

/** The record as JSON text: identical to JSON.stringify(project(...)). */
export function projectJson(ctx: ProjectCtx, plan: Plan, info: ObjectInfo, d: ObjectData, i: number): string {
  const keys = keysOf(plan)
  if (!keys) return JSON.stringify(project(ctx, plan, info, d, i))
  const id = d.id(i)
  const type = info.def.name
  const get = gettersOf(plan, d)
  let s = `{"attributes":{"type":"${type}","url":"/services/data/v${ctx.version}/sobjects/${type}/${id}"}`
  for (let k = 0; k < keys.length; k++) s += keys[k] + jsonValue(get[k] === null ? id : get[k]!(i))
  return s + '}'
}
