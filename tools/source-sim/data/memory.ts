// Owns in-memory object data (sObject-tree datasets, automation metadata): rows with ids assigned
// in order (so ids still sort by index), an id -> index map, and lazily built child indexes.
import type { ObjectData } from './types.ts'
import { to18 } from '../ids.ts'

export type Row = Record<string, unknown>

export class MemoryObject implements ObjectData {
  readonly rows: Row[]
  readonly live: number
  readonly total: number
  private readonly ids = new Map<string, number>()
  private readonly childIndex = new Map<string, Map<string, number[]>>()

  /** `rows` must carry `Id`; rows with IsDeleted = true must come last. */
  constructor(rows: Row[]) {
    this.rows = rows
    this.total = rows.length
    let live = rows.length
    while (live > 0 && rows[live - 1].IsDeleted === true) live--
    this.live = live
    rows.forEach((r, i) => this.ids.set(String(r.Id), i))
  }

  id(i: number): string {
    return String(this.rows[i].Id)
  }

  indexOf(id: string): number {
    return this.ids.get(to18(id)) ?? -1
  }

  value(i: number, field: string): unknown {
    if (field === 'IsDeleted') return i >= this.live
    return this.rows[i][field]
  }

  childrenOf(field: string, parentId: string): ArrayLike<number> {
    let idx = this.childIndex.get(field)
    if (!idx) {
      idx = new Map()
      for (let i = 0; i < this.rows.length; i++) {
        const v = this.rows[i][field]
        if (typeof v !== 'string') continue
        let list = idx.get(v)
        if (!list) idx.set(v, (list = []))
        list.push(i)
      }
      this.childIndex.set(field, idx)
    }
    return idx.get(to18(parentId)) ?? []
  }
}
