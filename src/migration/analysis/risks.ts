/**
 * The risk items of the report: what a source-platform administrator would flag before a move,
 * each with a stable `code`, a severity and what to do about it. One small check per concern,
 * run in the order of RISK_CHECKS; each returns zero or more items.
 */
import type { AnalysisReport, ObjectAnalysis, RiskItem, SourceMetadata, TimelineEstimate } from '../migration.types.ts'
import { listNames } from '../mapping/auto-map.ts'
import { namespaceOf } from '../mapping/field-types.ts'
import { recordSchemas } from '../../records/index.ts'
import { cannotBeInvited, usersUnreadable } from './owners.ts'

export type QuotaState = 'ok' | 'tight' | 'insufficient' | 'unknown'

export interface RiskInput {
  metadata: SourceMetadata
  objects: readonly ObjectAnalysis[]
  unreadable: ReadonlyArray<{ object: string; reason: string }>
  owners: AnalysisReport['owners']
  duplicates: AnalysisReport['duplicates']
  leadContactOverlap: readonly string[]
  timeline: TimelineEstimate
  quota: QuotaState
}

type Check = (i: RiskInput) => RiskItem[]

const risk = (code: string, severity: RiskItem['severity'], object: string | null, title: string, detail: string, recommended_action: string): RiskItem => ({
  code,
  severity,
  object,
  title,
  detail,
  recommended_action,
})

const supported = (i: RiskInput) => i.objects.filter((o) => o.support !== 'none')
const present = (i: RiskInput, name: string) => i.metadata.global.some((e) => e.name === name)
const count = (i: RiskInput, name: string): number | null => (Object.hasOwn(i.metadata.counts, name) ? i.metadata.counts[name] : null)
const n = (x: number) => x.toLocaleString('en-US')

const unreadableObjects: Check = (i) =>
  i.unreadable.map(({ object, reason }) =>
    risk('object_unreadable', 'high', object, `${object} could not be read`, `${reason}. Its fields or records are unknown, so it cannot be imported as analysed.`, 'Check the connected user\'s permissions on this object in the source, then analyse again.'),
  )

const apiAllowance: Check = (i) => {
  const a = i.timeline.allowance
  const calls = i.timeline.estimated_api_calls
  if (i.quota === 'unknown') {
    const why = i.metadata.limits_unreadable ? ` (${i.metadata.limits_unreadable})` : ''
    return [risk('api_allowance_unknown', 'high', null, 'The API allowance could not be read', `The source's daily API allowance (/limits) could not be read${why}. The import needs about ${n(calls)} API calls; whether the allowance covers them is unknown, so the run may pause part-way.`, 'Give the connected user "View Setup and Configuration" and analyse again, or check the remaining daily API requests in the source\'s setup before the run.')]
  }
  if (i.quota === 'insufficient') {
    return [risk('api_allowance', 'high', null, 'API allowance too small', `The import needs about ${n(calls)} API calls; the source has ${n(a!.remaining)} of ${n(a!.max)} left today.`, 'Run in phases, on another day, or raise the allowance; a run that hits the limit pauses until the allowance refills.')]
  }
  if (i.quota === 'tight') {
    return [risk('api_allowance', 'medium', null, 'API allowance is tight', `The import needs about ${n(calls)} API calls; the source has ${n(a!.remaining)} left today, less than twice that. Other integrations share the allowance.`, 'Run outside business hours or in phases.')]
  }
  return []
}

const automationUnreadable: Check = (i) =>
  i.metadata.automation.unavailable.length === 0
    ? []
    : [risk('automation_unreadable', 'high', null, 'Automation could not be read', `automation could not be read: ${i.metadata.automation.unavailable.join('; ')}. The automation counts are incomplete, not zero.`, 'Give the connected user access to the Tooling API ("View Setup and Configuration", "Author Apex" to read triggers), or review the source\'s automation by hand.')]

const automationNotReproduced: Check = (i) =>
  i.objects
    .filter((o) => o.automation.level !== 'none')
    .map((o) => {
      const a = o.automation
      const severity = a.level === 'high' ? 'high' : a.level === 'medium' ? 'medium' : 'low'
      const parts = [
        a.active_triggers && `${a.active_triggers} trigger(s)`,
        a.record_triggered_flows && `${a.record_triggered_flows} record-triggered flow(s)`,
        a.scheduled_flows && `${a.scheduled_flows} scheduled flow(s)`,
        a.workflow_rules && `${a.workflow_rules} workflow rule(s)`,
      ].filter(Boolean)
      return risk('automation_not_reproduced', severity, o.name, `${o.name} automation is not migrated`, `${parts.join(', ')} run on ${o.name} in the source (${listNames(a.items.map((x) => x.name))}). The service does not run them, and imported records do not trigger them.`, 'List what each one does and re-create what is still needed in the service (webhooks, your own integration) before switching.')
    })

const personAccounts: Check = (i) => {
  const acc = i.metadata.describes.Account
  if (!acc?.fields.some((f) => f.name === 'IsPersonAccount')) return []
  return [risk('person_accounts', 'high', 'Account', 'Person accounts are enabled', 'Person accounts are accounts and contacts in one record. They import as accounts only: the Person* fields (email, phone, birthdate...) are kept in custom_fields and no contact is created.', 'Decide how people should look in the service; if they should be contacts, plan a follow-up step that creates them from the kept fields.')]
}

const customObjects: Check = (i) =>
  i.objects
    .filter((o) => o.support === 'none' && o.custom)
    .map((o) =>
      risk(
        o.namespace ? 'managed_package_object' : 'custom_object_no_target',
        o.record_count > 0 ? 'medium' : 'low',
        o.name,
        o.namespace ? `${o.label} belongs to the managed package ${o.namespace}` : `${o.label} has no target`,
        `${n(o.record_count)} ${o.name} records are not imported: the service has no object for them${o.namespace ? `, and the package ${o.namespace}'s logic does not exist here` : ''}.`,
        'Export them from the source, or keep their key values on the parent records as custom fields; decide before switching off the source.',
      ),
    )

const otherObjects: Check = (i) => {
  const other = i.objects.filter((o) => o.support === 'none' && !o.custom && o.record_count > 0)
  if (other.length === 0) return []
  return [risk('standard_objects_not_migrated', 'low', null, 'Other standard objects stay behind', `${listNames(other.map((o) => `${o.name} (${n(o.record_count)})`), 8)} have no target in the service.`, 'Export what is still needed from the source.')]
}

const formulaFields: Check = (i) =>
  supported(i)
    .map((o) => ({ o, f: o.fields.filter((m) => m.calculated) }))
    .filter(({ f }) => f.length > 0)
    .map(({ o, f }) =>
      risk('formula_fields', 'low', o.name, `${f.length} formula field(s) on ${o.name} are not imported`, `${listNames(f.map((m) => m.source), 8)} ${f.length === 1 ? 'is' : 'are'} computed by the source and ${f.length === 1 ? 'has' : 'have'} no stored value to import.`, 'Re-create the ones people rely on in reports, or keep a snapshot by mapping them to custom_fields in Configure.'),
    )

const namespacedFields: Check = (i) =>
  supported(i)
    .map((o) => ({ o, f: o.fields.filter((m) => namespaceOf(m.source) !== null) }))
    .filter(({ f }) => f.length > 0)
    .map(({ o, f }) => {
      const ns = [...new Set(f.map((m) => namespaceOf(m.source)))]
      return risk('managed_package_fields', 'low', o.name, `${f.length} managed-package field(s) on ${o.name}`, `Fields of the package(s) ${ns.join(', ')} (${listNames(f.map((m) => m.source))}) are kept in custom_fields; what the package does with them is not reproduced.`, 'Check with the package\'s users which values still matter.')
    })

const polymorphicOutOfScope: Check = (i) =>
  supported(i).flatMap((o) =>
    o.fields
      .filter((m) => m.action === 'reference' && (m.reference_to?.length ?? 0) > 1 && m.status === 'lossy')
      .map((m) => {
        const lost = (m.reference_to ?? []).filter((t) => !(t in (m.targets ?? {})))
        return risk('polymorphic_out_of_scope', 'low', o.name, `${o.name}.${m.source} can link to objects that are not imported`, `${m.source} links to ${Object.keys(m.targets ?? {}).join(', ')} are kept; links to ${listNames(lost)} are not (the linked id is kept in custom_fields).`, 'Check in the source how many records link to those objects (for example with a report grouped by the related object type).')
      }),
  )

const lookupsOutOfScope: Check = (i) =>
  supported(i)
    .map((o) => ({ o, f: o.fields.filter((m) => m.action === 'custom_field' && m.transform !== 'record_type' && m.reference_to && m.reference_to.length > 0) }))
    .filter(({ f }) => f.length > 0)
    .map(({ o, f }) =>
      risk('lookups_not_linked', 'low', o.name, `${f.length} lookup(s) on ${o.name} are kept as ids only`, `${listNames(f.map((m) => `${m.source} -> ${listNames(m.reference_to!, 2)}`))}: the service has no link for them, so the source id is kept in custom_fields.`, 'Nothing to do unless those links matter; then keep the related data elsewhere.'),
    )

const picklists: Check = (i) =>
  supported(i).flatMap((o) =>
    o.fields
      .filter((m) => m.action === 'field' && m.picklist)
      .flatMap((m) => {
        const unmatched = m.picklist!.values.filter((v) => v.target === null).map((v) => v.source)
        const items: RiskItem[] = []
        if (unmatched.length > 0) {
          items.push(risk('picklist_unmatched', 'medium', o.name, `${unmatched.length} ${o.name}.${m.source} value(s) have no match`, `${listNames(unmatched, 10)} become ${m.picklist!.fallback}; the original value is kept in custom_fields.`, `Map them in Configure by choosing another target, or accept ${m.picklist!.fallback} and report on custom_fields.${m.source}.`))
        }
        const byTarget = new Map<string, string[]>()
        for (const v of m.picklist!.values) if (v.target) byTarget.set(v.target, [...(byTarget.get(v.target) ?? []), v.source])
        const merged = [...byTarget].filter(([, s]) => s.length > 1)
        if (merged.length > 0) {
          items.push(risk('picklist_merged', 'low', o.name, `Some ${o.name}.${m.source} values merge`, merged.map(([t, s]) => `${s.join(', ')} all become ${t}`).join('; ') + '; the original value is kept in custom_fields.', 'Check reports and views that group by this value.'))
        }
        return items
      }),
  )

const recordTypes: Check = (i) =>
  supported(i)
    .filter((o) => o.reasons.some((r) => r.startsWith('record types')))
    .map((o) => risk('record_types', 'low', o.name, `${o.name} uses record types`, 'Record type ids differ in every org; each record keeps its record type\'s developer name in custom_fields.RecordTypeId. The service has no record types, so layouts and picklist subsets per type do not carry over.', 'Filter on custom_fields.RecordTypeId where the distinction matters.'))

const owners: Check = (i) => {
  const items: RiskItem[] = []
  if (usersUnreadable(i.metadata)) {
    const why = i.metadata.unreadable?.find((u) => u.object === 'User')?.reason
    items.push(risk('users_unreadable', 'high', null, 'Source users could not be read', `The source users could not be read${why ? ` (${why})` : ''}. Without them, owners cannot be matched: imported records would have no owner.`, 'Check the connected user\'s permission to read users (and that the source is up), then analyse again.'))
    return items
  }
  // Not members yet but invitable: work to do before the run, not a loss (no readiness penalty).
  const invitable = i.owners.unmatched.filter((u) => !cannotBeInvited(u))
  if (invitable.length > 0) {
    items.push(risk('owners_unmatched', 'medium', null, `${invitable.length} active source user(s) have no member here yet`, `Owners are matched by email; ${listNames(invitable.map((u) => `${u.name} <${u.email}>`))} have no member with that address yet, so their records would be imported without an owner.`, 'Invite them to the organization before the run (then analyse again), or choose to leave owners empty in Configure.'))
  }
  const noEmail = i.owners.unmatched.filter((u) => u.active && cannotBeInvited(u))
  if (noEmail.length > 0) {
    items.push(risk('owners_no_email', 'medium', null, `${noEmail.length} active source user(s) have no email address`, `${listNames(noEmail.map((u) => u.name))} cannot be matched to a member (owners are matched by email), so records they own are imported without an owner.`, 'Give them an email address in the source and invite them here, or reassign their records before the run.'))
  }
  const inactive = i.owners.unmatched.filter((u) => !u.active)
  if (inactive.length > 0) {
    items.push(risk('inactive_owners', 'low', null, `${inactive.length} inactive source user(s)`, `${listNames(inactive.map((u) => u.name))} are inactive in the source and have no member here: records they still own are imported without an owner.`, 'Reassign their records in the source before the run, or accept ownerless records.'))
  }
  return items
}

const queueOwners: Check = (i) =>
  supported(i)
    .filter((o) => o.fields.some((m) => m.action === 'owner' && (m.reference_to ?? []).some((t) => t === 'Group')))
    .map((o) => risk('queue_owners', 'low', o.name, `${o.name} records can be owned by queues`, 'A queue is no member of the service: records owned by a queue are imported without an owner (the queue id is kept in custom_fields.OwnerId).', 'Assign queue-owned records to people before the run if they should have an owner.'))

const duplicatesUnreadable: Check = (i) =>
  (i.metadata.email_samples_unreadable ?? []).map(({ object, reason }) =>
    risk('duplicates_unreadable', 'high', object, `${object} emails could not be sampled`, `The sample of ${object} email addresses could not be read (${reason}). Duplicates in ${object} are unknown, not absent.`, `Analyse again when the source answers; until then, choose a deduplication rule for ${object === 'Lead' ? 'leads' : 'contacts'} in Configure (match by email) to be safe.`),
  )

const recordTypesUnreadable: Check = (i) => {
  const why = i.metadata.unreadable?.find((u) => u.object === 'RecordType')?.reason
  if (why === undefined) return []
  return [risk('record_types_unreadable', 'high', null, 'Record types could not be read', `The record types could not be read (${why}). Records of objects without record type details in their describe would keep the record type's id in custom_fields instead of its name.`, 'Check the connected user\'s permission to read RecordType (and that the source is up), then analyse again.')]
}

const duplicates: Check = (i) => {
  const items = i.duplicates
    .filter((d) => d.duplicate_groups > 0)
    .map((d) => risk('duplicate_emails', 'medium', d.object, `Duplicate emails in ${d.object}`, `${d.duplicate_groups} address(es) appear more than once in a sample of ${n(d.sampled)} ${d.object} records (compared ignoring case and spaces), e.g. ${d.examples.slice(0, 3).join(', ')}.`, `Choose a deduplication rule for ${d.object === 'Lead' ? 'leads' : 'contacts'} in Configure (match by email), or merge the duplicates in the source first.`))
  if (i.leadContactOverlap.length > 0) {
    items.push(risk('leads_match_contacts', 'low', 'Lead', 'Some leads are already contacts', `${i.leadContactOverlap.length} sampled lead address(es) belong to a contact too, e.g. ${i.leadContactOverlap.slice(0, 3).join(', ')}.`, 'Import leads with deduplication on, or leave those leads behind.'))
  }
  return items
}

const emailThreads: Check = (i) => {
  const c = count(i, 'EmailMessage')
  const viaCase = i.metadata.describes.Case?.childRelationships?.some((r) => r.childSObject === 'EmailMessage') ?? false
  if (c === 0 || (c === null && !viaCase && !present(i, 'EmailMessage'))) return []
  const detail = c !== null ? `${n(c)} email messages (Email-to-Case threads) are stored in EmailMessage.` : 'Cases can have Email-to-Case threads (EmailMessage); their number was not counted.'
  return [risk('email_threads_not_migrated', c !== null ? 'high' : 'medium', 'Case', 'Email threads are not migrated', `${detail} Case comments are migrated; email messages are not.`, 'Export the email threads of open cases, or keep the source readable for case history.')]
}

const chatter: Check = (i) => {
  const feeds = ['FeedItem', 'CaseFeed'].filter((x) => present(i, x))
  const viaCase = i.metadata.describes.Case?.childRelationships?.some((r) => r.childSObject === 'CaseFeed' || r.childSObject === 'FeedItem') ?? false
  if (feeds.length === 0 && !viaCase) return []
  return [risk('chatter_not_migrated', 'low', null, 'Chatter is not migrated', 'Chatter posts and case feeds (FeedItem, CaseFeed) stay in the source.', 'Copy the posts that hold decisions into case comments or descriptions before switching.')]
}

const files: Check = (i) => {
  const kinds = ['ContentDocument', 'Attachment'].filter((x) => present(i, x) && count(i, x) !== 0)
  const viaChildren = supported(i).some((o) =>
    (i.metadata.describes[o.name]?.childRelationships ?? []).some((r) => ['Attachment', 'ContentDocumentLink', 'AttachedContentDocument'].includes(r.childSObject)),
  )
  if (kinds.length === 0 && !viaChildren) return []
  const counted = kinds.map((k) => (count(i, k) !== null ? `${n(count(i, k)!)} ${k}` : k))
  return [risk('files_not_migrated', 'medium', null, 'Files and attachments are not migrated', `Files (ContentDocument) and attachments${counted.length > 0 ? ` (${counted.join(', ')})` : ''} stay in the source; only record data moves.`, 'Export the files people still need, or keep the source readable.')]
}

const caseNumbers: Check = (i) =>
  i.objects.some((o) => o.name === 'Case')
    ? [risk('case_numbers_renumbered', 'low', 'Case', 'Case numbers change', 'The service numbers cases itself; the source case number is kept in custom_fields.CaseNumber. Customers quoting an old number will not find it by number.', 'Tell support agents to search custom_fields.CaseNumber for old numbers.')]
    : []

const archivedActivities: Check = (i) =>
  i.objects.some((o) => o.name === 'Task' || o.name === 'Event')
    ? [risk('archived_activities', 'low', null, 'Old activities are archived in the source', 'The source archives activities older than a year; only queryAll returns them (with deleted rows, which the import skips). Counts of recent activity may look lower than the import.', 'Nothing to do; compare the validation counts with a queryAll count if they differ.')]
    : []

const currency: Check = (i) => {
  const items: RiskItem[] = []
  const money = i.objects.filter((o) => o.name === 'Opportunity' || o.name === 'Product2')
  const multi = Object.values(i.metadata.describes).some((d) => d.fields.some((f) => f.name === 'CurrencyIsoCode'))
  if (multi) items.push(risk('multi_currency', 'low', null, 'Several currencies', 'The source has multiple currencies: opportunities and products keep theirs; other amounts (account annual revenue) have no currency in the service.', 'Check reports that add amounts up across currencies.'))
  else if (money.length > 0) items.push(risk('currency_assumed', 'low', null, 'Currency is assumed', 'The source uses one currency and records carry none: opportunity and product amounts are imported with the service\'s default currency (USD).', 'If the source\'s currency is not USD, change the currency of imported opportunities and products after the run.'))
  if (i.objects.some((o) => o.name === 'Product2')) {
    items.push(risk('product_prices_not_migrated', 'low', 'Product2', 'Product prices are not migrated', 'Prices live in price books (PricebookEntry), not on the product: products import without a unit price.', 'Set unit prices in the service after the import.'))
  }
  return items
}

const customFieldLimit: Check = (i) =>
  supported(i)
    .filter((o) => o.fields.filter((m) => m.action === 'custom_field').length > recordSchemas.MAX_CUSTOM_FIELDS)
    .map((o) => risk('custom_fields_limit', 'medium', o.name, `${o.name} has more fields to keep than custom_fields holds`, `${o.fields.filter((m) => m.action === 'custom_field').length} fields go to custom_fields, which holds at most ${recordSchemas.MAX_CUSTOM_FIELDS} per record (and 64 KB); a record using more loses the rest, with a warning.`, 'Ignore the fields nobody needs in Configure.'))

const productionSource: Check = (i) =>
  i.metadata.environment === 'production'
    ? [risk('production_source', 'low', null, 'Analysing a production org', 'The spec recommends a trial run from a sandbox of the source first.', 'Connect a sandbox, run the import into a test organization, check it, then run from production.')]
    : []

export const RISK_CHECKS: readonly Check[] = [
  unreadableObjects,
  apiAllowance,
  automationUnreadable,
  duplicatesUnreadable,
  recordTypesUnreadable,
  personAccounts,
  owners,
  duplicates,
  emailThreads,
  files,
  customObjects,
  automationNotReproduced,
  picklists,
  formulaFields,
  polymorphicOutOfScope,
  lookupsOutOfScope,
  namespacedFields,
  recordTypes,
  queueOwners,
  caseNumbers,
  currency,
  customFieldLimit,
  chatter,
  archivedActivities,
  otherObjects,
  productionSource,
]

const ORDER = { high: 0, medium: 1, low: 2 } as const

export function collectRisks(input: RiskInput): RiskItem[] {
  const items = RISK_CHECKS.flatMap((check) => check(input))
  return items.map((r, i) => ({ r, i })).sort((a, b) => ORDER[a.r.severity] - ORDER[b.r.severity] || a.i - b.i).map(({ r }) => r)
}
