/**
 * SOQL the client sends and the query results it reads: names and ids checked before they are
 * put into a query (they come from describes and checkpoints, but a query string is no place to
 * trust them), paging through nextRecordsUrl ourselves, one retried request per page, instead of
 * jsforce's autoFetch (which silently stops at maxFetch = 10,000; spec §2.1), and records without
 * the `attributes` envelope.
 */
import type { SourceConnection } from './source-connection.ts'

/** API names of objects and fields, and dotted parent paths (`Account.Name`). */
const NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/
/** 15- or 18-character record ids. */
const ID = /^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$/

export function soqlName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not a valid API name: ${JSON.stringify(name).slice(0, 80)}`)
  return name
}

export function soqlId(id: string): string {
  if (!ID.test(id)) throw new Error(`not a valid record id: ${JSON.stringify(id).slice(0, 80)}`)
  return `'${id}'`
}

export interface QueryResult<T = Record<string, unknown>> {
  totalSize: number
  done: boolean
  nextRecordsUrl?: string
  records: T[]
}

/** The query resource of the version root: `/query?q=`, or the Tooling API's. */
export function queryUrl(sc: SourceConnection, soql: string, tooling = false): string {
  return sc.path(`${tooling ? '/tooling' : ''}/query?q=${encodeURIComponent(soql)}`)
}

/**
 * Every record of a query (or the first `max`), following nextRecordsUrl page by page. For the
 * small reads of the analysis (users, record types, automation, samples), not for object data:
 * record-reader.ts pages those by keyset so that a restart never depends on a locator.
 */
export async function queryRecords<T = Record<string, unknown>>(
  sc: SourceConnection,
  soql: string,
  opts: { tooling?: boolean; max?: number; what?: string } = {},
): Promise<T[]> {
  const what = opts.what ?? `querying ${/\bFROM\s+(\w+)/i.exec(soql)?.[1] ?? 'the source'}`
  const max = opts.max ?? Number.POSITIVE_INFINITY
  const out: T[] = []
  let page = await sc.request<QueryResult<T>>(what, queryUrl(sc, soql, opts.tooling))
  for (;;) {
    for (const r of page.records ?? []) {
      if (out.length >= max) return out
      out.push(stripAttributes(r as Record<string, unknown>) as T)
    }
    if (page.done || !page.nextRecordsUrl || out.length >= max) return out
    page = await sc.request<QueryResult<T>>(what, page.nextRecordsUrl)
  }
}

/** Exact count: `SELECT COUNT() FROM X` answers totalSize with no records (spec §1.5). */
export async function countRecords(sc: SourceConnection, object: string): Promise<number> {
  const r = await sc.request<QueryResult>(`counting ${object} records`, queryUrl(sc, `SELECT COUNT() FROM ${soqlName(object)}`))
  return r.totalSize
}

/**
 * A record as the REST JSON has it, minus `attributes` at every level: parent records
 * (`Account: {attributes, Name}` -> `Account: {Name}`) and child query results alike. Changes the
 * record in place: it was parsed for us alone, and copying every page showed in profiles.
 */
export function stripAttributes(record: Record<string, unknown>): Record<string, unknown> {
  delete record.attributes
  for (const key in record) {
    const v = record[key]
    if (v === null || typeof v !== 'object') continue
    const obj = v as Record<string, unknown>
    if (Array.isArray(obj.records)) for (const child of obj.records as Record<string, unknown>[]) stripAttributes(child)
    else if (!Array.isArray(obj)) stripAttributes(obj)
  }
  return record
}
