// The Configure form's logic, apart from its controls: where it starts, selecting objects (comments
// follow their cases), the choices a field offers and which of them is an override worth storing,
// and the server's validation errors sorted to the settings they name.
import { defaultConfig, STEP_BY_OBJECT, sourceFieldOf, compatibility, isImportableTarget, kindsByName } from '../../../../../src/web-contracts.ts'
import { ApiError, type FieldError } from '../../../api/client.ts'
import type { AnalysisReport, FieldMapping, FieldOverride, MigrationConfig, MigrationView, ObjectAnalysis } from '../../../api/migration.ts'
import type { KindName } from '../../../kinds.ts'

/** The saved configuration, or what the analysis proposes (every importable object, dedup by email...). */
export function initialConfig(m: MigrationView, report: AnalysisReport): MigrationConfig {
  return m.config ?? defaultConfig(report.objects.filter((o) => o.default_selected).map((o) => o.name))
}

/** An object's parent in the import, when it is only ever imported with it (CaseComment with Case). */
export function followedObject(name: string): string | undefined {
  return STEP_BY_OBJECT.get(name)?.follows
}

export function isSelectable(o: ObjectAnalysis): boolean {
  return o.support !== 'none' && o.target !== null && followedObject(o.name) === undefined
}

/** Ticks or unticks an object; its followers (comments of cases) go with it. */
export function withObject(config: MigrationConfig, report: AnalysisReport, name: string, selected: boolean): MigrationConfig {
  const followers = report.objects.filter((o) => followedObject(o.name) === name).map((o) => o.name)
  const changing = new Set([name, ...followers])
  const rest = config.objects.filter((o) => !changing.has(o))
  return { ...config, objects: selected ? [...rest, ...changing] : rest }
}

// A field's choice in the editor, as one Select value.
export const KEEP_LINK = 'analysis'
export const CUSTOM = 'custom_field'
export const IGNORE = 'ignore'
const FIELD = 'field:'

/** The choice the analysis made for a field. */
export function analysisChoice(f: FieldMapping): string {
  if (f.action === 'field') return `${FIELD}${f.target}`
  if (f.action === 'reference' || f.action === 'owner') return KEEP_LINK
  return f.action
}

export function choiceOf(f: FieldMapping, override: FieldOverride | undefined): string {
  if (!override) return analysisChoice(f)
  return override.action === 'field' ? `${FIELD}${override.target}` : override.action
}

function overrideOf(choice: string): FieldOverride {
  if (choice.startsWith(FIELD)) return { action: 'field', target: choice.slice(FIELD.length) }
  return { action: choice as 'custom_field' | 'ignore' }
}

/** Stores the choice as an override, or drops the override when it is what the analysis chose. */
export function withFieldChoice(config: MigrationConfig, object: string, f: FieldMapping, choice: string): MigrationConfig {
  const overrides = { ...(config.field_overrides[object] ?? {}) }
  if (choice === analysisChoice(f)) delete overrides[f.source]
  else overrides[f.source] = overrideOf(choice)
  const all = { ...config.field_overrides, [object]: overrides }
  if (Object.keys(overrides).length === 0) delete all[object]
  return { ...config, field_overrides: all }
}

/** Compound parents and file content have no value of their own to put anywhere. */
export function hasValue(f: FieldMapping): boolean {
  return !['address', 'location', 'base64', 'complexvalue'].includes(f.source_type)
}

export interface ChoiceGroup {
  group: string
  items: Array<{ value: string; label: string }>
}

/** The target fields this source field's values can fill (same rules as the server's check), then keep or ignore. */
export function choicesFor(kind: KindName, f: FieldMapping): ChoiceGroup[] {
  const source = sourceFieldOf(f)
  // The analysis' own target is always offered, even where its special rules go beyond the table.
  const analysisTarget = f.action === 'field' ? f.target : null
  const targets = kindsByName[kind].fields
    .filter((def) => def.name === analysisTarget || (isImportableTarget(kind, def) && compatibility(source, def) !== null))
    .map((def) => ({ value: `${FIELD}${def.name}`, label: `${def.label} (${def.name})` }))
  const groups: ChoiceGroup[] = []
  if (f.action === 'reference' || f.action === 'owner') {
    groups.push({ group: 'As analyzed', items: [{ value: KEEP_LINK, label: f.action === 'owner' ? 'Owner, matched by email' : 'Link to the imported parent' }] })
  }
  if (targets.length) groups.push({ group: `${kindsByName[kind].label} fields`, items: targets })
  groups.push({ group: 'Other', items: [...(hasValue(f) ? [{ value: CUSTOM, label: 'Keep as custom field' }] : []), { value: IGNORE, label: 'Ignore (not imported)' }] })
  return groups
}

/** What changes on the way for this choice: a loss, a formula snapshot; null when nothing does. */
export function choiceNote(kind: KindName, f: FieldMapping, choice: string): string | null {
  if (choice === analysisChoice(f)) return null
  const notes: string[] = []
  if (choice.startsWith(FIELD)) {
    const def = kindsByName[kind].fields.find((d) => d.name === choice.slice(FIELD.length))
    const c = def && compatibility(sourceFieldOf(f), def)
    if (c?.lossy) notes.push(c.lossy)
    if (c?.note) notes.push(c.note)
  }
  if (f.calculated && choice !== IGNORE) notes.push('a formula: the value computed at migration time is imported and never recalculated')
  return notes.length ? notes.join('; ') : null
}

// ---------------------------------------------------------------------------------------------
// Server validation errors -> the settings they name
// ---------------------------------------------------------------------------------------------

export interface ConfigErrors {
  /** Every error with a readable place, for the summary. */
  all: Array<{ where: string; message: string }>
  objects: string | null
  /** Source object -> its selection error. */
  object: Record<string, string>
  /** Source object -> error about its mapping as a whole. */
  mapping: Record<string, string>
  /** `Object.Field` -> that field's error. */
  field: Record<string, string>
  /** `relationships`, `dedup.accounts`, `phasing`, `emit_webhooks`... -> error. */
  setting: Record<string, string>
}

const SETTING_NAMES: Record<string, string> = {
  relationships: 'Relationships',
  'relationships.missing_parent': 'Missing parents',
  'relationships.owners': 'Owners',
  dedup: 'Deduplication',
  'dedup.accounts': 'Account duplicates',
  'dedup.contacts': 'Contact duplicates',
  'dedup.leads': 'Lead duplicates',
  phasing: 'Phasing',
  emit_webhooks: 'Webhooks',
  create_custom_fields: 'Custom fields',
}

/** `objects.2` (schema) and `objects[2]` (analysis check) name the same thing. */
function normalizePath(field: string): string {
  return field.replace(/^\/+/, '').replace(/\//g, '.').replace(/^objects\.(\d+)/, 'objects[$1]')
}

function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1)
}

export function sortErrors(error: unknown, submitted: MigrationConfig | undefined): ConfigErrors | null {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) return null
  const out: ConfigErrors = { all: [], objects: null, object: {}, mapping: {}, field: {}, setting: {} }
  for (const e of error.fieldErrors as FieldError[]) {
    const path = normalizePath(e.field)
    const message = sentence(e.message)
    const index = /^objects\[(\d+)\]$/.exec(path)
    const override = /^field_overrides\.([^.]+)(?:\.(.+))?$/.exec(path)
    if (index) {
      const name = submitted?.objects[Number(index[1])] ?? `Object ${Number(index[1]) + 1}`
      out.object[name] = message
      out.all.push({ where: name, message })
    } else if (path === 'objects') {
      out.objects = message
      out.all.push({ where: 'Objects', message })
    } else if (override) {
      const [, object, field] = override
      if (field) out.field[`${object}.${field}`] = message
      else out.mapping[object] = message
      out.all.push({ where: field ? `${object} · ${field}` : `${object} field mapping`, message })
    } else {
      // The most specific setting named: `dedup.accounts.on_match` belongs to `dedup.accounts`.
      const parts = path.split('.')
      const key = [parts.slice(0, 2).join('.'), parts[0]].find((k) => k in SETTING_NAMES)
      if (key) out.setting[key] = message
      out.all.push({ where: key ? SETTING_NAMES[key] : path, message })
    }
  }
  return out
}

/** Key order (the database may reorder JSON keys) and object order do not make two configurations differ. */
export function sameConfig(a: MigrationConfig | null, b: MigrationConfig | null): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return [...value].sort()
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, canonical(v)]))
    return value
  }
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}
