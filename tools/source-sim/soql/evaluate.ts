// Owns reading values along a path (through lookups, including polymorphic ones resolved by key
// prefix), the platform's comparison semantics (case-insensitive text, 15/18-char id equality,
// date literal ranges, null rules) and the sort order used by ORDER BY.
import type { DataSet, ObjectData } from '../data/types.ts'
import type { ObjectInfo, SchemaIndex } from '../schema/registry.ts'
import type { FieldType } from '../schema/types.ts'
import type { OrderKey, Path, Pred, Value } from './compile.ts'
import { toMs } from './dates.ts'

export interface EvalCtx { schema: SchemaIndex; data: DataSet }

export const EMPTY: ObjectData = { live: 0, total: 0, id: () => '', indexOf: () => -1, value: () => null }

export function dataOf(ctx: EvalCtx, object: string): ObjectData {
  return ctx.data.get(object) ?? EMPTY
}

export function fieldValue(d: ObjectData, i: number, field: string): unknown {
  if (field === 'Id') return d.id(i)
  const v = d.value(i, field)
  return v === undefined ? null : v
}

/** The record a lookup points at, or null (empty lookup, orphaned id, or a type we do not serve). */
export function follow(ctx: EvalCtx, d: ObjectData, i: number, field: string): { info: ObjectInfo; data: ObjectData; index: number } | null {
  const id = d.value(i, field)
  if (typeof id !== 'string' || id.length < 15) return null
  const info = ctx.schema.objectForId(id)
  if (!info) return null
  const data = dataOf(ctx, info.def.name)
  const index = data.indexOf(id)
  return index < 0 ? null : { info, data, index }
}

export function pathValue(ctx: EvalCtx, info: ObjectInfo, d: ObjectData, i: number, path: Path): unknown {
  let curInfo = info, curData = d, cur = i
  for (const rel of path.rels) {
    const next = follow(ctx, curData, cur, rel.name)
    if (!next) return null
    curInfo = next.info; curData = next.data; cur = next.index
  }
  if (path.rels.length > 0 && !curInfo.fields.has(path.field.name.toLowerCase())) return null
  return fieldValue(curData, cur, path.field.name)
}

const isDate = (t: FieldType) => t === 'date' || t === 'datetime'
const isNum = (t: FieldType) => t === 'int' || t === 'double' || t === 'currency' || t === 'percent' || t === 'long'
const isId = (t: FieldType) => t === 'id' || t === 'reference'

/** Total order on non-null values of one field type; -1/0/1. */
export function compareValues(t: FieldType, a: unknown, b: unknown): number {
  if (isDate(t)) {
    const x = toMs(a) ?? 0, y = toMs(b) ?? 0
    return x < y ? -1 : x > y ? 1 : 0
  }
  if (isNum(t) || typeof a === 'number') {
    const x = Number(a), y = Number(b)
    return x < y ? -1 : x > y ? 1 : 0
  }
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1
  if (isId(t)) {
    const x = String(a).slice(0, 15), y = String(b).slice(0, 15)
    return x < y ? -1 : x > y ? 1 : 0
  }
  return TEXT.compare(String(a), String(b))
}

// Text compares case-insensitively in the user's locale (en-US here), not by code unit, as on the
// platform: `'b' > 'A'`, `'é'` next to `'e'`.
const TEXT = new Intl.Collator('en-US', { sensitivity: 'accent' })

/** LIKE values are compiled to regex sources (see likeSource); case-insensitive as on the platform. */
const likeCache = new Map<string, RegExp>()
function likeRe(src: string): RegExp {
  let re = likeCache.get(src)
  if (!re) {
    re = new RegExp(src, 'is')
    if (likeCache.size > 500) likeCache.clear()
    likeCache.set(src, re)
  }
  return re
}

function cmpOne(t: FieldType, op: string, v: unknown, lit: Value): boolean {
  if (Array.isArray(lit)) {
    // Date literal range [start, end).
    const ms = toMs(v)
    if (ms === null) return op === '!='
    const [s, e] = lit
    switch (op) {
      case '=': return ms >= s && ms < e
      case '!=': return ms < s || ms >= e
      case '<': return ms < s
      case '<=': return ms < e
      case '>': return ms >= e
      case '>=': return ms >= s
      default: return false
    }
  }
  if (lit === null || v === null || v === undefined) {
    const bothNull = lit === null && (v === null || v === undefined)
    if (op === '=') return bothNull
    if (op === '!=') return !bothNull
    return false
  }
  if (op === 'LIKE') return likeRe(String(lit)).test(String(v))
  if ((op === '=' || op === '!=') && typeof v === 'string' && !isDate(t) && !isId(t) && !isNum(t)) {
    // Equality is exact but case-insensitive; the collator would also equate ignorable characters.
    return (v.toLowerCase() === String(lit).toLowerCase()) === (op === '=')
  }
  const c = compareValues(t, v, lit)
  switch (op) {
    case '=': return c === 0
    case '!=': return c !== 0
    case '<': return c < 0
    case '<=': return c <= 0
    case '>': return c > 0
    case '>=': return c >= 0
    default: return false
  }
}

export function test(ctx: EvalCtx, info: ObjectInfo, d: ObjectData, i: number, p: Pred): boolean {
  switch (p.kind) {
    case 'and': return p.items.every((x) => test(ctx, info, d, i, x))
    case 'or': return p.items.some((x) => test(ctx, info, d, i, x))
    case 'not': return !test(ctx, info, d, i, p.item)
    case 'cmp': {
      const v = pathValue(ctx, info, d, i, p.path)
      const t = p.path.field.type
      if (p.op === 'IN') return p.values.some((lit) => cmpOne(t, '=', v, lit))
      if (p.op === 'NOT IN') return !p.values.some((lit) => cmpOne(t, '=', v, lit))
      return cmpOne(t, p.op, v, p.values[0])
    }
  }
}

/** ORDER BY comparator on record indices; `memo` caches values (for sorting, not for one pass). */
export function sortComparator(ctx: EvalCtx, info: ObjectInfo, d: ObjectData, keys: OrderKey[], memo = true): (a: number, b: number) => number {
  const cache = keys.map(() => new Map<number, unknown>())
  const get = (k: number, i: number) => {
    if (!memo) return pathValue(ctx, info, d, i, keys[k].path)
    let v = cache[k].get(i)
    if (v === undefined && !cache[k].has(i)) { v = pathValue(ctx, info, d, i, keys[k].path); cache[k].set(i, v) }
    return v
  }
  return (a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const x = get(k, a), y = get(k, b)
      const xn = x === null || x === undefined, yn = y === null || y === undefined
      let c: number
      if (xn || yn) {
        if (xn && yn) continue
        c = xn ? (keys[k].nullsLast ? 1 : -1) : keys[k].nullsLast ? -1 : 1
        return c
      }
      const field = keys[k].path.field
      // Picklists sort in their defined value order, not alphabetically.
      if ((field.type === 'picklist' || field.type === 'multipicklist') && field.picklist?.length) {
        const rank = (v: unknown) => {
          const r = field.picklist!.findIndex((p) => p.toLowerCase() === String(v).toLowerCase())
          return r < 0 ? field.picklist!.length : r
        }
        c = rank(x) - rank(y) || compareValues(field.type, x, y)
      } else c = compareValues(field.type, x, y)
      if (c !== 0) return keys[k].desc ? -c : c
    }
    return a - b // ties keep Id order
  }
}
