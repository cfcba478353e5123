/**
 * Which of the source's objects the analysis looks at. describeGlobal lists hundreds of objects;
 * most are companions of business objects (shares, field history, feeds, change events), metadata
 * types, or the platform's own setup. The filter follows source-platform.md §1.3, then keeps the
 * supported objects, the org's custom objects, and a short list of other standard business objects
 * (reported with their counts and no target, so the user sees what stays behind).
 */
import { SUPPORTED_OBJECTS, type SourceGlobalEntry } from '../migration.types.ts'

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_OBJECTS)

/** Companion objects every business object can have (`AccountShare`, `Project__History`, ...). */
const COMPANION_SUFFIXES = ['Share', 'History', 'Feed', 'ChangeEvent', 'Tag']

/** Custom metadata, platform events, external objects, big objects, knowledge article versions. */
const METADATA_SUFFIXES = ['__mdt', '__e', '__x', '__b', '__kav', '__ka', '__ViewStat', '__VoteStat', '__DataCategorySelection']

/**
 * The platform's own setup and system objects: users, permissions, code, automation, layout. The
 * analysis reads some of them (users, record types, triggers, flows) as metadata, never as data.
 */
export const SETUP_OBJECTS: ReadonlySet<string> = new Set([
  'User', 'UserRole', 'UserLicense', 'Group', 'GroupMember', 'QueueSobject', 'Profile', 'PermissionSet',
  'PermissionSetAssignment', 'PermissionSetGroup', 'PermissionSetLicense', 'ObjectPermissions', 'FieldPermissions',
  'RecordType', 'BusinessProcess', 'Organization', 'ApexClass', 'ApexTrigger', 'ApexPage', 'ApexComponent',
  'ApexLog', 'AsyncApexJob', 'CronTrigger', 'CronJobDetail', 'FlowDefinitionView', 'FlowInterview',
  'FlowRecordRelation', 'ProcessDefinition', 'ProcessInstance', 'ProcessInstanceStep', 'ProcessInstanceWorkitem',
  'EmailTemplate', 'BrandTemplate', 'Folder', 'Report', 'Dashboard', 'ListView', 'StaticResource', 'WebLink',
  'BusinessHours', 'Holiday', 'Period', 'LoginHistory', 'AuthSession', 'ConnectedApplication', 'NamedCredential',
  'PackageLicense', 'UserPackageLicense', 'EntityDefinition', 'FieldDefinition', 'Translation', 'Vote',
])

/**
 * Standard objects holding business data that the service has no target for. They are listed in
 * the report (support `none`) when they have records. Email messages, files and Chatter are not
 * here: they are risks of their own (risks.ts), not objects to score.
 */
export const OTHER_BUSINESS_OBJECTS: ReadonlySet<string> = new Set([
  'Campaign', 'CampaignMember', 'Solution', 'Asset', 'Contract', 'ContractLineItem', 'Order', 'OrderItem',
  'Quote', 'QuoteLineItem', 'Pricebook2', 'PricebookEntry', 'OpportunityLineItem', 'OpportunityContactRole',
  'AccountContactRelation', 'AccountContactRole', 'CaseContactRole', 'Partner', 'Entitlement', 'ServiceContract',
  'WorkOrder', 'WorkOrderLineItem', 'Individual', 'Idea',
])

export type Exclusion = 'not_readable' | 'deprecated' | 'custom_setting' | 'companion' | 'metadata_type' | 'setup' | 'out_of_scope'

function isCustomObject(e: SourceGlobalEntry): boolean {
  return e.name.endsWith('__c')
}

/** Why an object is left out of the inventory, or null when it is in. */
export function exclusionOf(e: SourceGlobalEntry): Exclusion | null {
  if (!e.queryable || !e.retrieveable) return 'not_readable'
  if (e.deprecatedAndHidden) return 'deprecated'
  if (e.customSetting) return 'custom_setting'
  if (METADATA_SUFFIXES.some((s) => e.name.endsWith(s))) return 'metadata_type'
  if (!isCustomObject(e) && COMPANION_SUFFIXES.some((s) => e.name.endsWith(s)) && !SUPPORTED.has(e.name)) return 'companion'
  if (isCustomObject(e)) return null
  if (SETUP_OBJECTS.has(e.name)) return 'setup'
  if (SUPPORTED.has(e.name) || OTHER_BUSINESS_OBJECTS.has(e.name)) return null
  return 'out_of_scope'
}

export interface Inventory {
  /** Supported objects present in the org, in describeGlobal order. */
  supported: string[]
  /** Custom objects (`…__c`, not settings), namespaced ones included. */
  custom: string[]
  /** Other standard business objects present (no target). */
  other: string[]
  filtered: { count: number; examples: string[]; by_reason: Partial<Record<Exclusion, number>> }
}

const EXAMPLES = 12

export function takeInventory(global: readonly SourceGlobalEntry[]): Inventory {
  const inv: Inventory = { supported: [], custom: [], other: [], filtered: { count: 0, examples: [], by_reason: {} } }
  const dropped = new Map<Exclusion, string[]>()
  for (const e of global) {
    const why = exclusionOf(e)
    if (why) {
      dropped.set(why, [...(dropped.get(why) ?? []), e.name])
      continue
    }
    if (SUPPORTED.has(e.name)) inv.supported.push(e.name)
    else if (isCustomObject(e)) inv.custom.push(e.name)
    else inv.other.push(e.name)
  }
  // Examples show every kind of exclusion first (a share, a history, a setting, ...), then more.
  const lists = [...dropped.values()]
  for (let i = 0; inv.filtered.examples.length < EXAMPLES && lists.some((l) => i < l.length); i++) {
    for (const l of lists) if (i < l.length && inv.filtered.examples.length < EXAMPLES) inv.filtered.examples.push(l[i])
  }
  for (const [why, names] of dropped) {
    inv.filtered.by_reason[why] = names.length
    inv.filtered.count += names.length
  }
  return inv
}

/** Data the service does not migrate whose volume the risks report (emails, files, Chatter). */
export const UNMIGRATED_DATA_OBJECTS: readonly string[] = ['EmailMessage', 'ContentDocument', 'Attachment', 'FeedItem', 'CaseFeed']

/**
 * What the source reader describes and counts for the analysis: the supported objects and the
 * custom objects (their fields are mapped and scored), the other business objects (listed with
 * their counts), and email, file and Chatter objects (their counts size the risks). The reader
 * counts what it describes, so the last two groups are described too, for a few calls more.
 */
export function objectsToDescribe(global: readonly SourceGlobalEntry[]): string[] {
  const inv = takeInventory(global)
  const present = new Set(global.map((e) => e.name))
  return [...inv.supported, ...inv.custom, ...inv.other, ...UNMIGRATED_DATA_OBJECTS.filter((n) => present.has(n))]
}
