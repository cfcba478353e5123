// Owns turning SOQL text into a plan checked against the schema: the supported subset (field
// lists, parent fields, child subqueries, WHERE with comparisons / IN / LIKE / AND / OR / NOT /
// date literals, ORDER BY, LIMIT, OFFSET, COUNT() and COUNT(field)). Everything else is rejected
// with MALFORMED_QUERY rather than answered wrongly; unknown names give INVALID_FIELD/INVALID_TYPE.
import { parseQuery, type Query, type WhereClause, type Condition, type FieldType as AstField } from '@jetstreamapp/soql-parser-js'
import { invalidField, invalidType, malformed } from '../errors.ts'
import type { ChildRel, ObjectInfo, SchemaIndex } from '../schema/registry.ts'
import type { FieldDef } from '../schema/types.ts'
import { dateLiteralRange } from './dates.ts'

/** A field reached from the queried object through zero or more lookups. */
export interface Path { rels: FieldDef[]; field: FieldDef; /** output keys: relationship names then field name */ keys: string[] }

export type Value = string | number | boolean | null | [number, number] /* date literal range */

export type Pred =
  | { kind: 'and' | 'or'; items: Pred[] }
  | { kind: 'not'; item: Pred }
  | { kind: 'cmp'; path: Path; op: string; values: Value[] }

export interface OrderKey { path: Path; desc: boolean; nullsLast: boolean }

export interface Plan {
  object: ObjectInfo
  fields: Array<
    | { kind: 'path'; path: Path }
    | { kind: 'sub'; rel: ChildRel; plan: Plan }
    /** TYPEOF Who WHEN Contact THEN ... ELSE ... END: fields chosen by the referenced record's type. */
    | { kind: 'typeof'; rel: FieldDef; branches: Map<string, FieldDef[]>; otherwise: FieldDef[] }
  >
  count: 'none' | 'count()' | 'count(field)'
  where: Pred | null
  orderBy: OrderKey[]
  limit: number | undefined
  offset: number
}

const ALLOWED_KEYS = new Set(['fields', 'sObject', 'where', 'orderBy', 'limit', 'offset', 'relationshipName'])

function resolvePath(schema: SchemaIndex, obj: ObjectInfo, dotted: string): Path {
  const parts = dotted.split('.')
  if (parts.length > 1 && parts[0].toLowerCase() === obj.def.name.toLowerCase()) parts.shift() // `Account.Name` FROM Account
  const rels: FieldDef[] = []
  const keys: string[] = []
  let cur: ObjectInfo[] = [obj]
  for (let i = 0; i < parts.length - 1; i++) {
    const relField = cur.map((o) => o.parents.get(parts[i].toLowerCase())).find(Boolean)
    if (!relField) throw invalidField(noColumn(dotted, cur[0].def.name, parts[i]))
    rels.push(relField)
    keys.push(relField.relationshipName!)
    cur = (relField.referenceTo ?? []).map((t) => schema.object(t)).filter((x): x is ObjectInfo => !!x)
    if (cur.length === 0) throw malformed(`relationship '${parts[i]}' points at objects this simulator does not serve`)
  }
  const last = parts[parts.length - 1]
  const field = cur.map((o) => o.fields.get(last.toLowerCase())).find(Boolean)
  if (!field) throw invalidField(noColumn(dotted, cur[0].def.name, last))
  keys.push(field.name)
  return { rels, field, keys }
}

function noColumn(raw: string, entity: string, name: string): string {
  return `\n${raw}\n^\nERROR at Row:1:Column:8\nNo such column '${name}' on entity '${entity}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name. Please reference your WSDL or the describe call for the appropriate names.`
}

function literal(raw: string, type: string | undefined, dateVar: number | undefined, path: Path): Value {
  const ft = path.field.type
  switch (type) {
    case 'STRING': {
      if (ft === 'date' || ft === 'datetime' || ft === 'int' || ft === 'double' || ft === 'currency' || ft === 'percent' || ft === 'boolean') {
        throw invalidField(`value of filter criterion for field '${path.field.name}' must be of type ${ft} and should not be enclosed in quotes`)
      }
      const inner = raw.slice(1, -1)
      return inner.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c)
    }
    case 'INTEGER': case 'DECIMAL': case 'INTEGER_WITH_CURRENCY_PREFIX': case 'DECIMAL_WITH_CURRENCY_PREFIX':
      return Number(raw.replace(/^[A-Z]{3}/, ''))
    case 'BOOLEAN': return raw.toUpperCase() === 'TRUE'
    case 'NULL': return null
    case 'DATE': return raw
    case 'DATETIME': return raw
    case 'DATE_LITERAL': case 'DATE_N_LITERAL':
      if (ft !== 'date' && ft !== 'datetime') throw invalidField(`date literal used on non-date field '${path.field.name}'`)
      return dateLiteralRange(raw, dateVar)
    default: throw malformed(`unsupported value: ${raw}`)
  }
}

/** LIKE pattern -> anchored regex source: `%` any run, `_` one char, `\%` `\_` literal. */
export function likeSource(pattern: string): string {
  let src = '^'
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i]
    if (c === '\\' && i + 1 < pattern.length) {
      c = pattern[++i]
      const mapped = ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[c] ?? c
      src += mapped.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    } else if (c === '%') src += '.*'
    else if (c === '_') src += '.'
    else src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return src + '$'
}

const OPS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=', 'LIKE', 'IN', 'NOT IN'])

function condition(schema: SchemaIndex, obj: ObjectInfo, c: Condition): Pred {
  const cc = c as Condition & { fn?: unknown; valueQuery?: unknown; field?: string; operator: string; value?: string | string[]; literalType?: string | string[]; dateLiteralVariable?: number | number[] }
  if (cc.fn || cc.valueQuery || !cc.field) throw malformed('only plain field comparisons are supported in WHERE (no functions or semi-joins)')
  const op = cc.operator.toUpperCase()
  if (!OPS.has(op)) throw malformed(`unsupported operator ${cc.operator}`)
  const path = resolvePath(schema, obj, cc.field)
  if (path.field.type === 'textarea' && (path.field.length ?? 0) > 255) throw invalidField(`field '${path.field.name}' can not be filtered in a query call`)
  const raws = Array.isArray(cc.value) ? cc.value : [cc.value ?? '']
  const types = Array.isArray(cc.literalType) ? cc.literalType : raws.map(() => cc.literalType as string | undefined)
  const vars = Array.isArray(cc.dateLiteralVariable) ? cc.dateLiteralVariable : raws.map(() => cc.dateLiteralVariable as number | undefined)
  if ((op === 'IN' || op === 'NOT IN') !== Array.isArray(cc.value)) throw malformed(`${op} needs ${op.endsWith('IN') ? 'a list' : 'a single value'}`)
  if (op === 'LIKE') {
    if (types[0] !== 'STRING') throw malformed('LIKE needs a string')
    return { kind: 'cmp', path, op, values: [likeSource(String(raws[0]).slice(1, -1))] }
  }
  return { kind: 'cmp', path, op: op === '<>' ? '!=' : op, values: raws.map((r, i) => literal(r, types[i], vars[i], path)) }
}

/** The parser returns WHERE as a right-leaning chain with paren counts; rebuild the tree. */
function where(schema: SchemaIndex, obj: ObjectInfo, w: WhereClause): Pred {
  type Tok = { t: '(' } | { t: ')' } | { t: 'op'; v: string } | { t: 'cond'; c: Condition }
  const toks: Tok[] = []
  let cur: WhereClause | undefined = w
  while (cur) {
    const left = cur.left as (Condition & { openParen?: number; closeParen?: number }) | null
    if (left) {
      for (let i = 0; i < (left.openParen ?? 0); i++) toks.push({ t: '(' })
      toks.push({ t: 'cond', c: left })
      for (let i = 0; i < (left.closeParen ?? 0); i++) toks.push({ t: ')' })
    }
    const operator = (cur as { operator?: string }).operator
    if (operator) toks.push({ t: 'op', v: operator.toUpperCase() })
    cur = (cur as { right?: WhereClause }).right
  }
  let pos = 0
  const expr = (): Pred => {
    const items: Pred[] = [unary()]
    let joiner: string | null = null
    while (pos < toks.length && toks[pos].t === 'op') {
      const v = (toks[pos] as { v: string }).v
      if (v !== 'AND' && v !== 'OR') throw malformed(`unexpected ${v}`)
      // SOQL refuses to mix AND and OR without parentheses.
      if (joiner && joiner !== v) throw malformed(`unexpected token: ${v} (use parentheses when mixing AND and OR)`)
      joiner = v
      pos++
      items.push(unary())
    }
    return items.length === 1 ? items[0] : { kind: joiner === 'OR' ? 'or' : 'and', items }
  }
  const unary = (): Pred => {
    const tok = toks[pos]
    if (!tok) throw malformed('unexpected end of WHERE')
    if (tok.t === 'op' && tok.v === 'NOT') { pos++; return { kind: 'not', item: unary() } }
    if (tok.t === '(') {
      pos++
      const inner = expr()
      if (toks[pos]?.t !== ')') throw malformed('unbalanced parentheses')
      pos++
      return inner
    }
    if (tok.t === 'cond') { pos++; return condition(schema, obj, tok.c) }
    throw malformed('unexpected token in WHERE')
  }
  const out = expr()
  if (pos !== toks.length) throw malformed('unexpected token in WHERE')
  return out
}

function compileQuery(schema: SchemaIndex, q: Query, obj: ObjectInfo, allowSub: boolean): Plan {
  for (const k of Object.keys(q)) if (!ALLOWED_KEYS.has(k) && (q as unknown as Record<string, unknown>)[k] !== undefined) throw malformed(`${k} is not supported by this simulator`)
  const plan: Plan = { object: obj, fields: [], count: 'none', where: null, orderBy: [], limit: q.limit, offset: q.offset ?? 0 }
  let countFilter: Pred | null = null
  for (const f of q.fields ?? []) {
    const fx = f as AstField & { alias?: string }
    if (fx.alias) throw malformed('field aliases are not supported')
    switch (fx.type) {
      case 'Field': plan.fields.push({ kind: 'path', path: resolvePath(schema, obj, fx.field) }); break
      case 'FieldRelationship': plan.fields.push({ kind: 'path', path: resolvePath(schema, obj, fx.rawValue ?? [...fx.relationships, fx.field].join('.')) }); break
      case 'FieldSubquery': {
        if (!allowSub) throw malformed('nested subqueries are not supported')
        const sq = fx.subquery
        const rel = obj.children.get(sq.relationshipName.toLowerCase())
        if (!rel) throw invalidType(sq.relationshipName)
        const child = schema.object(rel.childObject)!
        plan.fields.push({ kind: 'sub', rel, plan: compileQuery(schema, { ...sq, sObject: child.def.name } as Query, child, false) })
        break
      }
      case 'FieldTypeof': {
        const rel = obj.parents.get(fx.field.toLowerCase())
        if (!rel || (rel.referenceTo?.length ?? 0) < 2) throw malformed(`TYPEOF needs a polymorphic relationship, not '${fx.field}'`)
        const targets = (rel.referenceTo ?? []).map((t) => schema.object(t)).filter((x): x is ObjectInfo => !!x)
        const branches = new Map<string, FieldDef[]>()
        let otherwise: FieldDef[] = []
        for (const c of fx.conditions) {
          if (c.type === 'WHEN') {
            const target = schema.object(c.objectType ?? '')
            if (!target || !rel.referenceTo!.includes(target.def.name)) throw invalidType(c.objectType ?? '')
            branches.set(target.def.name, c.fieldList.map((n) => resolvePath(schema, target, n).field))
          } else {
            otherwise = c.fieldList.map((n) => {
              const hit = targets.map((t) => t.fields.get(n.toLowerCase())).find(Boolean)
              if (!hit) throw invalidField(noColumn(n, 'Name', n))
              return hit
            })
          }
        }
        plan.fields.push({ kind: 'typeof', rel, branches, otherwise })
        break
      }
      case 'FieldFunctionExpression': {
        if (fx.functionName.toUpperCase() !== 'COUNT' || (fx.parameters?.length ?? 0) > 1) throw malformed(`${fx.functionName}() is not supported`)
        plan.count = fx.parameters?.length ? 'count(field)' : 'count()'
        if (fx.parameters?.length) {
          // COUNT(field) counts non-null values: expressed as an extra `field != null` filter.
          const path = resolvePath(schema, obj, String(fx.parameters[0]))
          if (path.field.name !== 'Id') countFilter = { kind: 'cmp', path, op: '!=', values: [null] }
        }
        break
      }
      default: throw malformed(`${(fx as { type: string }).type} is not supported by this simulator`)
    }
  }
  if (plan.count !== 'none' && (plan.fields.length > 0 || (q.orderBy && (q.orderBy as unknown[]).length))) throw malformed('COUNT cannot be combined with other fields or ORDER BY')
  if (plan.count === 'none' && plan.fields.length === 0) throw malformed('SELECT needs at least one field')
  if (q.where) plan.where = where(schema, obj, q.where)
  if (countFilter) plan.where = plan.where ? { kind: 'and', items: [plan.where, countFilter] } : countFilter
  const orderBy = Array.isArray(q.orderBy) ? q.orderBy : q.orderBy ? [q.orderBy] : []
  for (const o of orderBy) {
    const ox = o as { field?: string; fn?: unknown; order?: string; nulls?: string }
    if (!ox.field || ox.fn) throw malformed('ORDER BY supports plain fields only')
    const path = resolvePath(schema, obj, ox.field)
    const desc = (ox.order ?? 'ASC').toUpperCase() === 'DESC'
    // Platform default: nulls first ascending, last descending.
    plan.orderBy.push({ path, desc, nullsLast: ox.nulls ? ox.nulls.toUpperCase() === 'LAST' : desc })
  }
  if (plan.limit !== undefined && (!Number.isInteger(plan.limit) || plan.limit < 0)) throw malformed('invalid LIMIT')
  return plan
}

export function compile(schema: SchemaIndex, soql: string): Plan {
  let q: Query
  try {
    q = parseQuery(soql)
  } catch (e) {
    throw malformed(`\n${soql}\n^\nERROR at Row:1:Column:1\n${(e as Error).message.split('\n')[0]}`)
  }
  const obj = schema.object(q.sObject ?? '')
  if (!obj) throw invalidType(q.sObject ?? '')
  return compileQuery(schema, q, obj, true)
}
