/**
 * Turns source records into target values with an object's effective mapping. compileMapping does
 * every decision once (converters, enum tables, key prefixes, required fields); transformRecord
 * then runs a flat list of steps per record, because it runs for every record of an import.
 *
 * Values arrive as REST JSON or Bulk CSV text. A record fails (`validation_failed`) only when it has
 * no Id or CreatedDate, or a required target field stays empty or blank. A value the service cannot
 * hold (an email its rule refuses, a URL, number or date it cannot read) leaves its field empty
 * with a warning; the record imports. Whatever is left out or written differently from the source is kept
 * in custom_fields under the source field's API name, so nothing the source held is lost.
 */
import { recordSchemas } from '../../records/index.ts'
import { kindsByName, type FieldDef, type KindName } from '../../records/contracts.ts'
import type { FieldMapping, TransformedRecord } from '../migration.types.ts'
import { catalogueFor } from './catalogue.ts'
import {
  booleanConverter,
  customConverter,
  cut,
  dateConverter,
  dateTimeConverter,
  decimalConverter,
  emailConverter,
  integerConverter,
  INVALID,
  parseDateTime,
  textConverter,
  urlConverter,
  type Converter,
  type Work,
} from './converters.ts'
import { isImportableTarget, targetField } from './field-types.ts'
import { normalizeDomain } from './normalize.ts'
import { enumTableFor, lossyValues, matchEnumValue } from './picklist-maps.ts'
import { rulesFor, type RecordRule } from './record-rules.ts'
import { isBlank } from '../../shared/required-text.ts'

/** Key prefix -> source object, for polymorphic lookups; the describes' `keyPrefix` values come first. */
export const DEFAULT_KEY_PREFIXES: Readonly<Record<string, string>> = {
  '001': 'Account',
  '003': 'Contact',
  '00Q': 'Lead',
  '006': 'Opportunity',
  '500': 'Case',
  '01t': 'Product2',
}

const USER_PREFIX = '005'
/**
 * Below this many characters of kept text the 64 KB limit cannot be reached, so it is not measured:
 * a character is at most 6 bytes of JSON (a \u escape), and 200 keys with numbers or booleans add
 * at most about 14 KB.
 */
const MEASURE_FROM_CHARS = 8 * 1024

export interface CompileOptions {
  /** RecordTypeId -> developer name (org-specific ids mean nothing elsewhere). */
  recordTypes: ReadonlyMap<string, string>
  /** Key prefix -> source object (`{'001': 'Account'}`), from the describes' `keyPrefix`; DEFAULT_KEY_PREFIXES fill the gaps. */
  keyPrefixes?: Readonly<Record<string, string>>
}

interface Building extends Work {
  fields: Record<string, unknown>
  custom_fields: Record<string, unknown>
  references: TransformedRecord['references']
  owner: TransformedRecord['owner']
  customCount: number
  customChars: number
  /** The record's keys in lower case, built only when a field is not found under its exact name. */
  folded: Map<string, unknown> | null
}

type Step = (raw: Record<string, unknown>, b: Building) => void

export interface CompiledMapping {
  object: string
  kind: KindName
  /** What the importer must select: Id, CreatedDate, every field not ignored, and what record rules read. */
  sourceFields: string[]
  /** Every target field a transformed record's `fields` carries (mapped, derived like `domain`, or set by a record rule). */
  columns: string[]
  /** Target values a record gets from its object alone (an Event's kind is `event`), unless a mapped field fills them. */
  fixed: Readonly<Record<string, unknown>>
  readonly steps: readonly Step[]
  readonly rules: readonly RecordRule[]
  /** Required target fields and the source field filling each (null: none, so every record fails). */
  readonly required: ReadonlyArray<{ target: string; source: string | null }>
  readonly requiredRefs: ReadonlyArray<{ target: string; source: string }>
  /** Columns only record rules fill: set to null on records the rule leaves alone, so every record has every column. */
  readonly ruleColumns: readonly string[]
}

export type TransformResult = { ok: true; record: TransformedRecord } | { ok: false; code: string; reason: string }

/** A field's value by its exact name, or (sObject-tree files write `accountId`) case-insensitively. */
function get(raw: Record<string, unknown>, name: string, lower: string, b: Building): unknown {
  const v = raw[name]
  if (v !== undefined) return v
  let folded = b.folded
  if (folded === null) {
    folded = new Map()
    for (const k of Object.keys(raw)) folded.set(k.toLowerCase(), raw[k])
    b.folded = folded
  }
  return folded.get(lower)
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === ''
}

function setCustom(b: Building, key: string, value: unknown): void {
  if (!(key in b.custom_fields)) b.customCount++
  if (typeof value === 'string') b.customChars += value.length
  else if (Array.isArray(value)) b.customChars += value.length * 16
  b.custom_fields[key] = value
}

function enumConverter(kind: KindName, m: FieldMapping, def: FieldDef): Converter {
  const table = enumTableFor(kind, def)
  const targets = def.values ?? []
  const values = m.picklist?.values ?? []
  const fallback = m.picklist?.fallback ?? table.fallback
  const known = new Map<string, string | null>(values.map((v) => [v.source, v.target]))
  const lossy = lossyValues(values)
  // Values whose target is theirs alone; any other value's original wording is kept in custom_fields.
  const exact = new Set(values.filter((v) => v.target !== null && !lossy.has(v.source)).map((v) => v.source))
  return (v, work) => {
    if (isEmpty(v)) return null
    const s = typeof v === 'string' ? v : String(v)
    let t = known.get(s)
    if (t === undefined) {
      t = matchEnumValue(table, targets, s)
      if (known.size < 1000) known.set(s, t)
    }
    if (!exact.has(s)) work.rewritten = true
    return t ?? fallback
  }
}

function valueConverter(kind: KindName, m: FieldMapping, def: FieldDef): Converter {
  const label = m.source
  switch (m.transform) {
    case 'email':
      return emailConverter(label, def)
    case 'url':
      return urlConverter(label, def)
    case 'integer':
      return integerConverter(label, def)
    case 'decimal':
      return decimalConverter(label)
    case 'boolean':
      return booleanConverter(label)
    case 'date':
      return dateConverter(label)
    case 'datetime':
      return dateTimeConverter(label)
    case 'enum':
      return enumConverter(kind, m, def)
    default:
      // text, multipicklist (kept as written, "a;b;c"), and anything a newer mapping may name.
      return textConverter(label, def)
  }
}

function defaultOf(def: FieldDef): unknown {
  if (def.default !== undefined) return def.default
  return def.type === 'boolean' ? false : null
}

function fieldStep(kind: KindName, m: FieldMapping, def: FieldDef, deriveDomain: string | null): Step {
  const source = m.source
  const lower = source.toLowerCase()
  const target = def.name
  const convert = valueConverter(kind, m, def)
  const dflt = defaultOf(def)
  return (raw, b) => {
    const v = get(raw, source, lower, b)
    b.rewritten = false
    let x = convert(v, b)
    // Left out or written differently: the source's value as it came, under its API name.
    if (x === INVALID || b.rewritten) setCustom(b, source, v)
    if (x === INVALID) x = null
    b.fields[target] = x === null ? dflt : x
    if (deriveDomain !== null) {
      const d = normalizeDomain(v)
      b.fields[deriveDomain] = d !== null && d.length <= 255 ? d : null
    }
  }
}

function referenceStep(m: FieldMapping, prefixes: ReadonlyMap<string, string>): Step {
  const source = m.source
  const lower = source.toLowerCase()
  const targets = Object.entries(m.targets ?? {})
  const to = m.reference_to ?? targets.map(([o]) => o)
  // A lookup to one object needs no prefix check; a polymorphic one picks by the id's key prefix.
  const single = to.length === 1 && targets.length === 1 ? { field: targets[0][1], object: targets[0][0] } : null
  const byPrefix = new Map<string, { field: string; object: string }>()
  for (const [object, field] of targets) {
    const p = prefixes.get(object)
    if (p) byPrefix.set(p, { field, object })
  }
  return (raw, b) => {
    const v = get(raw, source, lower, b)
    if (isEmpty(v)) return
    const id = String(v)
    const hit = single ?? byPrefix.get(id.slice(0, 3))
    if (!hit) {
      setCustom(b, source, id)
      return
    }
    for (const r of b.references) if (r.field === hit.field) return // the first link to a field wins
    b.references.push({ field: hit.field, object: hit.object, src_id: id, source })
  }
}

function ownerStep(m: FieldMapping): Step {
  const source = m.source
  const lower = source.toLowerCase()
  const field = m.target!
  return (raw, b) => {
    const v = get(raw, source, lower, b)
    if (isEmpty(v)) return
    const id = String(v)
    // Queues (00G) and public calendars (023) own records too; they are no member of the service.
    if (id.startsWith(USER_PREFIX)) {
      if (b.owner === null) b.owner = { field, src_id: id }
    } else setCustom(b, source, id)
  }
}

function customStep(m: FieldMapping, recordTypes: ReadonlyMap<string, string>): Step {
  const source = m.source
  const lower = source.toLowerCase()
  if (m.transform === 'record_type') {
    return (raw, b) => {
      const v = get(raw, source, lower, b)
      if (isEmpty(v)) return
      const id = String(v)
      setCustom(b, source, recordTypes.get(id) ?? recordTypes.get(id.slice(0, 15)) ?? id)
    }
  }
  const convert = customConverter(m.transform ?? 'text')
  return (raw, b) => {
    const x = convert(get(raw, source, lower, b))
    if (x !== null && x !== undefined) setCustom(b, source, x)
  }
}

export function compileMapping(object: string, fields: readonly FieldMapping[], opts: CompileOptions): CompiledMapping {
  const cat = catalogueFor(object)
  if (!cat) throw new Error(`compileMapping: ${object} has no target in the service`)
  const kind = cat.target
  // Object -> prefix: the describes' prefixes win over the defaults.
  const prefixes = new Map<string, string>()
  for (const [p, o] of Object.entries(DEFAULT_KEY_PREFIXES)) prefixes.set(o, p)
  for (const [p, o] of Object.entries(opts.keyPrefixes ?? {})) prefixes.set(o, p)
  const recordTypes = new Map(opts.recordTypes)
  for (const [id, name] of opts.recordTypes) if (id.length === 18) recordTypes.set(id.slice(0, 15), name)

  const valueTargets = new Set(fields.filter((m) => m.action === 'field').map((m) => m.target))
  const columns = new Set<string>()
  const steps: Step[] = []
  const selected = new Set<string>(['Id', 'CreatedDate'])
  for (const m of fields) {
    const entry = cat.fields[m.source]
    if (m.action === 'ignore') {
      if (entry?.action === 'ignore' && entry.reads) selected.add(m.source)
      continue
    }
    selected.add(m.source)
    if (m.action === 'field') {
      const def = m.target ? targetField(kind, m.target) : undefined
      if (!def || !isImportableTarget(kind, def)) throw new Error(`compileMapping: ${object}.${m.source} maps to unknown target ${m.target}`)
      // A derived value never overwrites a field that a source field of its own fills.
      const domain = m.derived?.find((d) => d.rule === 'domain' && !valueTargets.has(d.target))?.target ?? null
      steps.push(fieldStep(kind, m, def, domain))
      columns.add(def.name)
      if (domain) columns.add(domain)
    } else if (m.action === 'reference') steps.push(referenceStep(m, prefixes))
    else if (m.action === 'owner') steps.push(ownerStep(m))
    else steps.push(customStep(m, recordTypes))
  }
  const rules = rulesFor(object)
  const present = new Set(fields.map((m) => m.source))
  for (const r of rules) for (const name of r.reads) if (present.has(name)) selected.add(name)

  const provided = new Set(rules.flatMap((r) => r.provides))
  const ruleColumns = [...provided].filter((c) => !columns.has(c))
  for (const c of provided) columns.add(c)
  const fixed: Record<string, unknown> = {}
  for (const r of rules) Object.assign(fixed, r.fixed)
  const required = kindsByName[kind].fields
    .filter((d) => d.required && d.type !== 'ref' && d.type !== 'user')
    .map((d) => ({ target: d.name, source: fields.find((m) => m.action === 'field' && m.target === d.name)?.source ?? null }))
    .filter((r) => r.source !== null || !provided.has(r.target))
  const requiredRefs: Array<{ target: string; source: string }> = []
  for (const m of fields) {
    const entry = cat.fields[m.source]
    if (m.action !== 'reference' || entry?.action !== 'reference' || !entry.required) continue
    for (const target of Object.values(m.targets ?? {})) requiredRefs.push({ target, source: m.source })
  }

  return { object, kind, sourceFields: [...selected], columns: [...columns], fixed, steps, rules, required, requiredRefs, ruleColumns }
}

function fail(reason: string): TransformResult {
  return { ok: false, code: 'validation_failed', reason }
}

export function transformRecord(compiled: CompiledMapping, raw: Record<string, unknown>): TransformResult {
  const b: Building = {
    fields: {},
    custom_fields: {},
    references: [],
    owner: null,
    warnings: [],
    rewritten: false,
    customCount: 0,
    customChars: 0,
    folded: null,
  }
  const id = get(raw, 'Id', 'id', b)
  if (typeof id !== 'string' || id === '') return fail('Id is empty')
  const created = parseDateTime(get(raw, 'CreatedDate', 'createddate', b))
  if (created === null) return fail(`CreatedDate ${JSON.stringify(get(raw, 'CreatedDate', 'createddate', b) ?? null)} is not a date and time`)

  const steps = compiled.steps
  for (let i = 0; i < steps.length; i++) steps[i](raw, b)
  if (compiled.rules.length > 0) {
    const read = (name: string) => get(raw, name, name.toLowerCase(), b)
    for (const r of compiled.rules) r.apply(read, b)
    for (const c of compiled.ruleColumns) if (b.fields[c] === undefined) b.fields[c] = null
  }
  for (const r of compiled.required) {
    const v = b.fields[r.target]
    // The API's rule for required text (shared/required-text.ts): whitespace or invisible characters alone are blank.
    if (v === null || v === undefined || (typeof v === 'string' && isBlank(v))) {
      const empty = v === null || v === undefined || v === '' ? 'empty' : 'blank'
      return fail(r.source ? `${r.target} is required but ${r.source} is ${empty}` : `${r.target} is required but no source field maps to it`)
    }
  }
  for (const r of compiled.requiredRefs) {
    if (!b.references.some((x) => x.field === r.target)) return fail(`${r.target} is required but ${r.source} is empty`)
  }
  if (b.customCount > recordSchemas.MAX_CUSTOM_FIELDS || b.customChars > MEASURE_FROM_CHARS) fitCustomFields(b)

  return {
    ok: true,
    record: {
      src_id: id,
      created_at: new Date(created),
      fields: b.fields,
      custom_fields: b.custom_fields,
      references: b.references,
      owner: b.owner,
      warnings: b.warnings,
    },
  }
}

/**
 * custom_fields has the REST API's limits (200 keys, 64 KB of JSON). A record beyond them loses
 * its last keys or the tail of its longest texts, with a warning naming what was cut.
 */
function fitCustomFields(b: Building): void {
  const cf = b.custom_fields
  const keys = Object.keys(cf)
  if (keys.length > recordSchemas.MAX_CUSTOM_FIELDS) {
    const dropped = keys.slice(recordSchemas.MAX_CUSTOM_FIELDS)
    for (const k of dropped) delete cf[k]
    b.warnings.push({ code: 'custom_fields_dropped', field: 'custom_fields', reason: `more than ${recordSchemas.MAX_CUSTOM_FIELDS} custom fields: ${dropped.join(', ')} not kept` })
  }
  let bytes = Buffer.byteLength(JSON.stringify(cf))
  const cutKeys: string[] = []
  while (bytes > recordSchemas.MAX_CUSTOM_FIELDS_BYTES) {
    let longest: string | null = null
    for (const k of Object.keys(cf)) {
      const v = cf[k]
      if (typeof v === 'string' && (longest === null || v.length > (cf[longest] as string).length)) longest = k
    }
    if (longest === null || (cf[longest] as string).length === 0) break
    const s = cf[longest] as string
    cf[longest] = cut(s, Math.floor(s.length / 2))
    if (!cutKeys.includes(longest)) cutKeys.push(longest)
    bytes = Buffer.byteLength(JSON.stringify(cf))
  }
  if (cutKeys.length > 0) b.warnings.push({ code: 'custom_fields_truncated', field: 'custom_fields', reason: `custom fields over ${recordSchemas.MAX_CUSTOM_FIELDS_BYTES / 1024} KB: ${cutKeys.join(', ')} cut` })
}
