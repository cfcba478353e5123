// Owns running a compiled query one page at a time. Three scan modes: forward over the index
// range (no ORDER BY or ORDER BY Id; `Id > x` becomes a binary search since ids sort by index),
// backward (ORDER BY Id DESC), or sorted (any other ORDER BY: matching indices are sorted once and
// cached, and recomputed identically if evicted). A page resumes at a scan position carried in the
// locator, so paging never rescans what was already served.
import type { ObjectData } from '../data/types.ts'
import type { Plan, Pred } from './compile.ts'
import { compareValues, dataOf, sortComparator, test } from './evaluate.ts'
import { projectJson, type ProjectCtx } from './project.ts'

export interface Cursor { o: number; p: number; n: number }
/** `records` are JSON texts, one per record (see projectJson). */
export interface Page { totalSize: number; done: boolean; records: string[]; next: Cursor | null; lastId: string | null }

class Lru<V> {
  private readonly m = new Map<string, V>()
  private readonly max: number
  constructor(max: number) { this.max = max }
  get(k: string): V | undefined {
    const v = this.m.get(k)
    if (v !== undefined) { this.m.delete(k); this.m.set(k, v) }
    return v
  }
  drop(prefix: string): void {
    for (const k of [...this.m.keys()]) if (k.startsWith(prefix)) this.m.delete(k)
  }
  set(k: string, v: V): void {
    this.m.set(k, v)
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value as string)
  }
}
const sortedCache = new Lru<Int32Array>(8)
const countCache = new Lru<number>(64)

/** Cache keys start with the org's instance id; this drops one org's entries. */
export function dropExecuteCaches(instance: string): void {
  sortedCache.drop(`${instance}|`)
  countCache.drop(`${instance}|`)
  orderCache.drop(`${instance}|`)
}

const orderCache = new Lru<boolean>(64)

/**
 * Whether the matching records, in index order, already satisfy the ORDER BY: one pass with no
 * memory, stopping at the first pair out of order. Generated data often is (thread order).
 */
function inIndexOrder(ctx: ProjectCtx, plan: Plan, key: string, bound: number, matches: (i: number) => boolean): boolean {
  let known = orderCache.get(key)
  if (known === undefined) {
    const d = dataOf(ctx, plan.object.def.name)
    const cmp = sortComparator(ctx, plan.object, d, plan.orderBy, false)
    known = true
    let prev = -1
    for (let i = 0; i < bound; i++) {
      if (!matches(i)) continue
      if (prev >= 0 && cmp(prev, i) > 0) { known = false; break }
      prev = i
    }
    orderCache.set(key, known)
  }
  return known
}

/** First index in [0, n) whose id compares > (or >=) the given id. */
function lowerBound(d: ObjectData, n: number, id: string, strict: boolean): number {
  let lo = 0, hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const c = compareValues('id', d.id(mid), id)
    if (c < 0 || (strict && c === 0)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Narrows [lo, hi) with top-level `Id` conjuncts; `exact` if nothing else needs checking. */
function idRange(pred: Pred | null, d: ObjectData, bound: number): { lo: number; hi: number; exact: boolean } {
  let lo = 0, hi = bound, exact = true
  const conj = pred ? (pred.kind === 'and' ? pred.items : [pred]) : []
  for (const c of conj) {
    if (c.kind !== 'cmp' || c.path.rels.length || c.path.field.name !== 'Id' || typeof c.values[0] !== 'string') { exact = false; continue }
    const v = c.values[0]
    switch (c.op) {
      case '>': lo = Math.max(lo, lowerBound(d, bound, v, true)); break
      case '>=': lo = Math.max(lo, lowerBound(d, bound, v, false)); break
      case '<': hi = Math.min(hi, lowerBound(d, bound, v, false)); break
      case '<=': hi = Math.min(hi, lowerBound(d, bound, v, true)); break
      case '=': {
        const i = d.indexOf(v)
        if (i < 0 || i >= bound) { lo = 0; hi = 0 } else { lo = Math.max(lo, i); hi = Math.min(hi, i + 1) }
        break
      }
      default: exact = false
    }
  }
  return { lo, hi: Math.max(lo, hi), exact }
}

export function runPage(ctx: ProjectCtx, plan: Plan, key: string, cursor: Cursor | null, batch: number): Page {
  const info = plan.object
  const d = dataOf(ctx, info.def.name)
  const bound = ctx.scanAll ? d.total : d.live
  const ob = plan.orderBy
  const byId = ob.length === 0 || (ob.length === 1 && ob[0].path.rels.length === 0 && ob[0].path.field.name === 'Id')
  const matches = (i: number) => !plan.where || test(ctx, info, d, i, plan.where)

  // Positions 0..len-1 map to record indices differently per mode.
  let len: number, at: (pos: number) => number, exact: boolean
  if (byId) {
    const r = idRange(plan.where, d, bound)
    const desc = ob.length === 1 && ob[0].desc
    len = r.hi - r.lo
    at = desc ? (pos) => r.hi - 1 - pos : (pos) => r.lo + pos
    exact = r.exact
  } else if (inIndexOrder(ctx, plan, key, bound, matches)) {
    // Already in the requested order (e.g. comment threads by ParentId, CreatedDate): scan, no sort.
    len = bound
    at = (pos) => pos
    exact = !plan.where
  } else {
    let sorted = sortedCache.get(key)
    if (!sorted) {
      const list: number[] = []
      for (let i = 0; i < bound; i++) if (matches(i)) list.push(i)
      list.sort(sortComparator(ctx, info, d, ob))
      sorted = Int32Array.from(list)
      sortedCache.set(key, sorted)
    }
    const s = sorted
    len = s.length
    at = (pos) => s[pos]
    exact = true
  }

  let { o, p, n } = cursor ?? { o: 0, p: 0, n: -1 }
  if (!cursor) {
    let count: number
    if (exact) count = len
    else {
      const cached = countCache.get(key)
      if (cached !== undefined) count = cached
      else {
        count = 0
        for (let pos = 0; pos < len; pos++) if (matches(at(pos))) count++
        countCache.set(key, count)
      }
    }
    n = Math.max(0, count - plan.offset)
    if (plan.limit !== undefined) n = Math.min(n, plan.limit)
    // Skip OFFSET rows.
    if (exact) p = plan.offset
    else for (let skipped = 0; p < len && skipped < plan.offset; p++) if (matches(at(p))) skipped++
  }

  if (plan.count !== 'none') {
    const records = plan.count === 'count()' ? [] : [JSON.stringify({ attributes: { type: 'AggregateResult' }, expr0: n })]
    return { totalSize: plan.count === 'count()' ? n : 1, done: true, records, next: null, lastId: null }
  }

  const records: string[] = []
  const want = Math.min(batch, n - o)
  let last = -1
  while (records.length < want && p < len) {
    const i = at(p++)
    if (exact || matches(i)) {
      records.push(projectJson(ctx, plan, info, d, i))
      last = i
    }
  }
  o += records.length
  const done = o >= n || p >= len
  return { totalSize: n, done, records, next: done ? null : { o, p, n }, lastId: last >= 0 ? d.id(last) : null }
}

/** Streams every matching index of a plan (Bulk API jobs), in the same order as runPage. */
export function* scanAll(ctx: ProjectCtx, plan: Plan, from = 0): Generator<number> {
  const info = plan.object
  const d = dataOf(ctx, info.def.name)
  const bound = ctx.scanAll ? d.total : d.live
  const r = idRange(plan.where, d, bound)
  for (let i = Math.max(r.lo, from); i < r.hi; i++) if (r.exact || !plan.where || test(ctx, info, d, i, plan.where)) yield i
}
