/**
 * Saved views' rules (docs/views.md): what a view may hold (the kind's columns, the list's own
 * filter and sort parameters, checked by the list's schemas), who sees it (its owner; everyone
 * when shared) and who may change it (its owner; an administrator too once it is shared).
 */
import { validatorCompiler, fieldErrors } from '../http/validation.ts'
import { writeTransaction } from '../db/write-transaction.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { Forbidden, NotFound, ValidationFailed, type FieldError } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import { kindsByName, type KindName, type RecordKind } from '../records/contracts.ts'
import { recordSchemas } from '../records/index.ts'
import { MAX_VIEWS_PER_PERSON_AND_KIND } from './view.schemas.ts'
import { countOwnViews, deleteView, insertView, selectView, selectVisibleViews, updateView, type ViewContent, type ViewRow } from './views.repository.ts'

export type SavedView = ViewRow & { mine: boolean }

/** The kind whose list a view narrows: the pipeline board shows opportunities. */
function listKind(viewKind: string): RecordKind {
  return kindsByName[(viewKind === 'pipeline' ? 'opportunity' : viewKind) as KindName]
}

type Validate = ((data: unknown) => boolean) & { errors?: Parameters<typeof fieldErrors>[0] | null }
const filterValidators = new Map<string, Validate>()

/** The list's count parameters (its filters, no paging or sort), read as a query string is. */
function filterValidator(viewKind: string): Validate {
  let validate = filterValidators.get(viewKind)
  if (!validate) {
    validate = validatorCompiler({ schema: recordSchemas.countQuerySchema(listKind(viewKind)), httpPart: 'querystring', method: 'GET', url: '' }) as unknown as Validate
    filterValidators.set(viewKind, validate)
  }
  return validate
}

/** 400 naming each column, filter or sort the view's list does not have. */
function checkContent(viewKind: string, content: ViewContent): void {
  const kind = listKind(viewKind)
  const errors: FieldError[] = []
  const builtIn = new Set(kind.fields.map((f) => f.name))
  content.columns.forEach((c, i) => {
    if (!builtIn.has(c) && !/^custom_fields\.[a-z][a-z0-9_]{0,62}$/.test(c)) errors.push({ field: `columns[${i}]`, message: `is not a field of ${kind.labelPlural.toLowerCase()}` })
  })
  const validate = filterValidator(viewKind)
  // The validator reads text as a query string does (numbers coerced), so it works on a copy.
  if (!validate({ ...content.filters })) errors.push(...fieldErrors(validate.errors ?? [], 'filters').map((e) => ({ ...e, field: `filters.${e.field.replace(/^filters\.?/, '')}` })))
  if (content.sort !== null) {
    const sorts = (recordSchemas.listQuerySchema(kind).properties.sort as { enum: string[] }).enum
    if (viewKind === 'pipeline') errors.push({ field: 'sort', message: 'the pipeline is ordered by stage; its views have no sort' })
    else if (!sorts.includes(content.sort)) errors.push({ field: 'sort', message: `must be one of: ${sorts.join(', ')}` })
  }
  if (!content.name.trim()) errors.push({ field: 'name', message: 'cannot be blank' })
  if (errors.length > 0) throw new ValidationFailed(`Invalid view: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
}

function personOf(auth: AuthContext): string {
  if (!auth.userId) throw new Forbidden('Saved views belong to a person; this credential acts for none.')
  return auth.userId
}

const shown = (auth: AuthContext, v: ViewRow): SavedView => ({ ...v, mine: v.owner_user_id === auth.userId })

export async function listViews(db: Kysely<DB>, auth: AuthContext, kind?: string): Promise<SavedView[]> {
  return (await selectVisibleViews(db, auth.orgId, personOf(auth), kind)).map((v) => shown(auth, v))
}

/** A view the caller may see: another person's private view answers 404, as an unknown id does. */
export async function getView(db: Kysely<DB>, auth: AuthContext, id: string): Promise<SavedView> {
  const view = await selectView(db, auth.orgId, id)
  if (!view || (!view.shared && view.owner_user_id !== personOf(auth))) throw new NotFound('View')
  return shown(auth, view)
}

export interface NewView {
  kind: string
  name: string
  shared?: boolean
  columns?: string[]
  filters?: Record<string, string>
  sort?: string | null
}

export async function createView(db: Kysely<DB>, auth: AuthContext, input: NewView, now = new Date()): Promise<SavedView> {
  const owner = personOf(auth)
  const content: ViewContent = { name: input.name.trim(), shared: input.shared ?? false, columns: input.columns ?? [], filters: input.filters ?? {}, sort: input.sort ?? null }
  checkContent(input.kind, content)
  return writeTransaction(db, auth.receipt, async (trx) => {
    if ((await countOwnViews(trx, auth.orgId, owner, input.kind)) >= MAX_VIEWS_PER_PERSON_AND_KIND) {
      throw new ValidationFailed(`You have ${MAX_VIEWS_PER_PERSON_AND_KIND} views of this list already, the most one person can have.`, [{ field: 'kind', message: `has ${MAX_VIEWS_PER_PERSON_AND_KIND} views of yours already` }])
    }
    return shown(auth, await insertView(trx, auth.orgId, { id: uuidv7(now), kind: input.kind, owner_user_id: owner, ...content }, now))
  })
}

/** Its owner changes a view; an administrator may also change or unshare a shared one (a stale view everyone sees). */
function assertMayChange(auth: AuthContext, view: ViewRow): void {
  if (view.owner_user_id === auth.userId) return
  if (view.shared && auth.role === 'admin') return
  throw new Forbidden(view.shared ? 'Only the person who saved this shared view, or an administrator, can change it.' : 'Only the person who saved this view can change it.')
}

export async function changeView(db: Kysely<DB>, auth: AuthContext, id: string, change: Partial<Omit<NewView, 'kind'>>, now = new Date()): Promise<SavedView> {
  await getView(db, auth, id)
  return writeTransaction(db, auth.receipt, async (trx) => {
    const current = await selectView(trx, auth.orgId, id, true)
    if (!current) throw new NotFound('View')
    assertMayChange(auth, current)
    const content: ViewContent = {
      name: (change.name ?? current.name).trim(),
      shared: change.shared ?? current.shared,
      columns: change.columns ?? current.columns,
      filters: change.filters ?? current.filters,
      sort: change.sort === undefined ? current.sort : change.sort,
    }
    checkContent(current.kind, content)
    return shown(auth, await updateView(trx, auth.orgId, id, content, now))
  })
}

export async function removeView(db: Kysely<DB>, auth: AuthContext, id: string): Promise<void> {
  const view = await getView(db, auth, id)
  assertMayChange(auth, view)
  await writeTransaction(db, auth.receipt, (trx) => deleteView(trx, auth.orgId, id))
}
