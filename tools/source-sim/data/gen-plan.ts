// Owns the generated org's proportions: how many records of each object for a given account
// count (overridable per object), and the `demo` preset. Ratios follow a typical B2B service org.

export interface GenOptions {
  seed: number
  accounts: number
  /** Per-object overrides, e.g. { Contact: 1_000_000 }. */
  counts?: Record<string, number>
}

export const GENERATED_OBJECTS = ['User', 'Account', 'Contact', 'Lead', 'Opportunity', 'Product2', 'Case', 'CaseComment', 'Task', 'Event', 'Project__c', 'acme__Subscription__c'] as const

export const DEMO: GenOptions = { seed: 42, accounts: 250 }

export function planCounts(o: GenOptions): Record<string, number> {
  const a = Math.max(1, Math.floor(o.accounts))
  const plan: Record<string, number> = {
    User: Math.min(2000, Math.max(8, Math.round(a / 100))),
    Account: a,
    Contact: a * 3,
    Lead: Math.round(a * 1.5),
    Opportunity: Math.round(a * 1.2),
    Product2: Math.min(500, Math.max(12, Math.round(a / 20))),
    Case: a * 2,
    Task: a * 4,
    Event: a,
    Project__c: Math.round(a / 2),
    acme__Subscription__c: Math.round(a / 3),
  }
  Object.assign(plan, o.counts ?? {})
  // Comment threads: ~3.5 per case for 4 cases out of 5 (the fifth has none).
  plan.CaseComment = o.counts?.CaseComment ?? Math.round(plan.Case * 0.8 * 3.5)
  return plan
}

/** Soft-deleted records (IsDeleted, only through queryAll): 1% of the main objects. */
export function deletedCount(object: string, live: number): number {
  return ['Account', 'Contact', 'Lead', 'Case', 'Opportunity'].includes(object) ? Math.floor(live / 100) : 0
}
