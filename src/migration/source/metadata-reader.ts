/**
 * Reads what the Analyze step needs from the source org (SourceMetadata in migration.types.ts):
 * describeGlobal, the describes of the objects the caller picks, record counts, automation
 * (triggers, flows, workflow rules), users, record types, the daily API allowance and bounded
 * samples of email addresses. Calls run a few at a time (the org's allowance and its concurrent
 * request limit are shared with its own users).
 *
 * What cannot be read does not fail the analysis, but it is always recorded with its reason, so the
 * analysis can count it as a risk rather than as zero: automation goes to `automation.unavailable`,
 * objects (describe or count), users and record types to `unreadable`, the allowance to
 * `limits_unreadable` (limits null), email samples to `email_samples_unreadable`. Quota and auth
 * errors do fail it (nothing else would succeed either), as does describeGlobal (without the list
 * of objects there is nothing to analyse).
 */
import type { SourceDescribe, SourceGlobalEntry, SourceMetadata } from '../migration.types.ts'
import type { SourceConnection } from './source-connection.ts'
import { SourceAuthFailed, SourceError, SourceQuotaExceeded } from './source-errors.ts'
import { countRecords, queryRecords, soqlName } from './soql.ts'

export interface ReadMetadataOptions {
  /** Picks the objects to describe and count from describeGlobal (the inventory filter lives with the analysis). */
  objectsToDescribe: (global: SourceGlobalEntry[]) => string[]
  /** Email addresses sampled per object (Contact, Lead) for the duplicate check; default 2,000. */
  sampleEmails?: number
  /** Platform calls in flight at once; default 4. */
  concurrency?: number
}

type Automation = SourceMetadata['automation']

/** Objects whose Email values are sampled. */
const EMAIL_SAMPLE_OBJECTS = ['Contact', 'Lead']
/** Names per recordCount call: keeps the URL far below any proxy's limit. */
const RECORD_COUNT_CHUNK = 100

const TRIGGERS_SOQL = 'SELECT Id, Name, TableEnumOrId, Status, UsageBeforeInsert, UsageAfterInsert, UsageBeforeUpdate, UsageAfterUpdate, UsageBeforeDelete, UsageAfterDelete, UsageAfterUndelete, NamespacePrefix FROM ApexTrigger'
const FLOWS_SOQL = 'SELECT DurableId, ApiName, Label, ProcessType, TriggerType, RecordTriggerType, TriggerObjectOrEventLabel, IsActive, NamespacePrefix FROM FlowDefinitionView'
const WORKFLOW_SOQL = 'SELECT Id, Name, TableEnumOrId, NamespacePrefix FROM WorkflowRule'

export async function readSourceMetadata(sc: SourceConnection, opts: ReadMetadataOptions): Promise<SourceMetadata> {
  const run = limiter(opts.concurrency ?? 4)
  const sample = opts.sampleEmails ?? 2_000
  const unreadable: Array<{ object: string; reason: string }> = []

  const global = (await sc.request<{ sobjects: SourceGlobalEntry[] }>('listing the source objects', sc.path('/sobjects'))).sobjects
  const known = new Map(global.map((g) => [g.name, g]))
  const names = [...new Set(opts.objectsToDescribe(global))].filter((n) => known.has(n))

  const describes: Record<string, SourceDescribe> = {}
  const describing = Promise.all(names.map((name) => run(async () => {
    const r = await soft(() => sc.request<SourceDescribe>(`describing ${name}`, sc.path(`/sobjects/${soqlName(name)}/describe`)))
    if (r.ok) describes[name] = r.value
    else unreadable.push({ object: name, reason: r.reason })
  })))

  const [, counts, automation, users, recordTypes, limits, emailSamples] = await Promise.all([
    describing,
    readCounts(sc, run, names, unreadable),
    readAutomation(sc, run),
    run(() => soft(() => queryRecords<SourceMetadata['users'][number]>(sc, 'SELECT Id, Name, Email, IsActive FROM User', { what: 'reading the source users' }))),
    run(() => soft(() => queryRecords<SourceMetadata['record_types'][number]>(sc, 'SELECT Id, DeveloperName, SobjectType FROM RecordType', { what: 'reading the record types' }))),
    run(() => soft(() => sc.request<Record<string, { Max: number; Remaining: number }>>('reading the API allowance', sc.path('/limits')))),
    readEmailSamples(sc, run, known, sample),
  ])
  const samplesUnreadable = Object.entries(emailSamples).flatMap(([object, r]) => (r.ok ? [] : [{ object, reason: r.reason }]))
  if (!users.ok) unreadable.push({ object: 'User', reason: users.reason })
  if (!recordTypes.ok) unreadable.push({ object: 'RecordType', reason: recordTypes.reason })
  const daily = limits.ok ? limits.value.DailyApiRequests : undefined

  return {
    instance_url: sc.instanceUrl,
    api_version: sc.apiVersion,
    organization_id: sc.identity.organizationId,
    environment: sc.identity.environment,
    global,
    describes,
    counts,
    automation,
    users: users.ok ? users.value.map((u) => ({ Id: u.Id, Name: u.Name, Email: u.Email ?? null, IsActive: u.IsActive })) : [],
    record_types: recordTypes.ok ? recordTypes.value.map((r) => ({ Id: r.Id, DeveloperName: r.DeveloperName, SobjectType: r.SobjectType })) : [],
    limits: daily && typeof daily.Max === 'number' ? { max: daily.Max, remaining: daily.Remaining } : null,
    email_samples: Object.fromEntries(Object.entries(emailSamples).flatMap(([object, r]) => (r.ok ? [[object, r.value]] : []))),
    unreadable: unreadable.sort((a, b) => a.object.localeCompare(b.object)),
    ...(limits.ok ? {} : { limits_unreadable: limits.reason }),
    ...(samplesUnreadable.length > 0 ? { email_samples_unreadable: samplesUnreadable.sort((a, b) => a.object.localeCompare(b.object)) } : {}),
  }
}

/**
 * Counts from `/limits/recordCount` (one call per hundred objects; it needs "View Setup and
 * Configuration" and omits objects it does not track), then `SELECT COUNT()` for the rest.
 */
async function readCounts(sc: SourceConnection, run: Run, names: string[], unreadable: Array<{ object: string; reason: string }>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (let i = 0; i < names.length; i += RECORD_COUNT_CHUNK) {
    const chunk = names.slice(i, i + RECORD_COUNT_CHUNK)
    const r = await run(() => soft(() => sc.request<{ sObjects?: Array<{ name: string; count: number }> }>('counting records', sc.path(`/limits/recordCount?sObjects=${chunk.map(soqlName).join(',')}`))))
    if (!r.ok) break // no permission: every object is counted by query below
    for (const o of r.value.sObjects ?? []) if (chunk.includes(o.name) && typeof o.count === 'number') counts[o.name] = o.count
  }
  await Promise.all(names.filter((n) => !(n in counts)).map((name) => run(async () => {
    const r = await soft(() => countRecords(sc, name))
    if (r.ok) counts[name] = r.value
    else unreadable.push({ object: name, reason: r.reason })
  })))
  return counts
}

async function readAutomation(sc: SourceConnection, run: Run): Promise<Automation> {
  // `what` is the label, so a failure reads "Apex triggers (Tooling API): the source platform ... (UNKNOWN_EXCEPTION: ...)".
  const read = <T>(label: string, soql: string, tooling: boolean) => run(() => soft(() => queryRecords<T>(sc, soql, { tooling, what: label })))
  const [triggers, flows, workflowRules] = await Promise.all([
    read<Automation['triggers'][number] & { Id?: string }>('Apex triggers (Tooling API)', TRIGGERS_SOQL, true),
    read<Automation['flows'][number] & { DurableId?: string }>('flows (FlowDefinitionView)', FLOWS_SOQL, false),
    read<Automation['workflow_rules'][number] & { Id?: string }>('workflow rules (Tooling API)', WORKFLOW_SOQL, true),
  ])
  return {
    triggers: triggers.ok ? triggers.value.map(({ Id: _id, ...t }) => t) : [],
    flows: flows.ok ? flows.value.map(({ DurableId: _id, ...f }) => f) : [],
    workflow_rules: workflowRules.ok ? workflowRules.value.map(({ Id: _id, ...w }) => w) : [],
    unavailable: [triggers, flows, workflowRules].flatMap((r) => (r.ok ? [] : [r.reason])),
  }
}

/**
 * The first `max` non-empty Email values of Contact and Lead: a sample, never the whole table.
 * A sample that could not be read is kept as its reason: its duplicates are unknown, not none.
 */
async function readEmailSamples(sc: SourceConnection, run: Run, known: Map<string, SourceGlobalEntry>, max: number): Promise<Record<string, Soft<string[]>>> {
  const samples: Record<string, Soft<string[]>> = {}
  if (max <= 0) return samples
  await Promise.all(EMAIL_SAMPLE_OBJECTS.filter((o) => known.get(o)?.queryable).map((object) => run(async () => {
    const r = await soft(() => queryRecords<{ Email: string | null }>(sc, `SELECT Email FROM ${object} WHERE Email != null LIMIT ${Math.floor(max)}`, { max, what: `sampling ${object} emails` }))
    samples[object] = r.ok ? { ok: true, value: r.value.map((x) => x.Email).filter((e): e is string => typeof e === 'string') } : r
  })))
  return samples
}

type Soft<T> = { ok: true; value: T } | { ok: false; reason: string }

/** A failure that should not stop the analysis becomes a reason; quota, auth and programming errors still throw. */
async function soft<T>(fn: () => Promise<T>): Promise<Soft<T>> {
  try {
    return { ok: true, value: await fn() }
  } catch (err) {
    if (err instanceof SourceQuotaExceeded || err instanceof SourceAuthFailed || !(err instanceof SourceError)) throw err
    return { ok: false, reason: err.message }
  }
}

type Run = <T>(fn: () => Promise<T>) => Promise<T>

/** At most `n` of the functions given to it run at once. */
function limiter(n: number): Run {
  let active = 0
  const waiting: Array<() => void> = []
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    // A finishing call hands its slot straight to the next waiter, so no newcomer slips in between.
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      return await fn()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}
