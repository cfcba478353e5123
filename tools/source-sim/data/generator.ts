// Owns assembling the generated org: one ObjectData per object whose values are computed on
// demand from (seed, object, index) by the gen-* field functions. Nothing per record is stored,
// so a million-record org costs no memory, and the same seed always gives the same data.
import { IdMaker, indexOfId } from '../ids.ts'
import { GenCtx, PREFIX, type Fns } from './gen-context.ts'
import { planCounts, type GenOptions } from './gen-plan.ts'
import { contactFns, leadFns, userFns } from './gen-people.ts'
import { accountFns, opportunityFns, productFns, projectFns, subscriptionFns } from './gen-accounts.ts'
import { caseCommentFns, caseFns, eventFns, taskFns } from './gen-service.ts'
import type { Spread } from './spread.ts'
import type { DataSet, ObjectData } from './types.ts'

class GeneratedObject implements ObjectData {
  readonly live: number
  readonly total: number
  private readonly prefix: string
  private readonly pod: string
  private readonly fns: Fns
  /** field -> spread giving the children of a parent index in O(1). */
  private readonly fast: Map<string, Spread>
  private readonly ids: IdMaker

  constructor(prefix: string, pod: string, live: number, total: number, fns: Fns, fast: Map<string, Spread>) {
    this.prefix = prefix
    this.pod = pod
    this.live = live
    this.total = total
    this.fns = fns
    this.fast = fast
    this.ids = new IdMaker(prefix, pod)
  }

  id(i: number): string {
    return this.ids.id(i)
  }

  indexOf(id: string): number {
    const i = indexOfId(id, this.prefix, this.pod)
    return i >= 0 && i < this.total ? i : -1
  }

  value(i: number, field: string): unknown {
    const fn = this.fns[field]
    return fn ? fn(i) : null
  }

  getter(field: string): ((i: number) => unknown) | undefined {
    const fn = this.fns[field]
    return fn ?? (() => null)
  }

  childrenOf(field: string, parentId: string): ArrayLike<number> | undefined {
    const spread = this.fast.get(field)
    if (!spread) return undefined
    const p = indexOfId(parentId, parentId.slice(0, 3), this.pod)
    const [lo, hi] = spread.range(p)
    const out: number[] = []
    // The range is where children would be; orphaned rows in it point elsewhere and are skipped.
    for (let j = lo; j < hi; j++) if (this.fns[field](j) === parentId) out.push(j)
    return out
  }
}

export function generateOrg(options: GenOptions, pod: string): DataSet {
  const counts = planCounts(options)
  const g = new GenCtx(options.seed, pod, counts)
  const fns: Record<string, Fns> = {
    User: userFns(g), Account: accountFns(g), Contact: contactFns(g), Lead: leadFns(g), Opportunity: opportunityFns(g),
    Product2: productFns(g), Case: caseFns(g), CaseComment: caseCommentFns(g), Task: taskFns(g), Event: eventFns(g),
    Project__c: projectFns(g), acme__Subscription__c: subscriptionFns(g),
  }
  // Case.ContactEmail mirrors the case contact's email, as on the platform.
  fns.Case.ContactEmail = (i) => {
    const id = fns.Case.ContactId(i)
    const j = typeof id === 'string' ? indexOfId(id, PREFIX.Contact, pod) : -1
    return j >= 0 && j < g.total.Contact ? fns.Contact.Email(j) : null
  }
  const fast: Record<string, Map<string, Spread>> = {
    Contact: new Map([['AccountId', g.contactAccount]]),
    Case: new Map([['ContactId', g.caseContact]]),
    CaseComment: new Map([['ParentId', g.commentCase]]),
    Opportunity: new Map([['AccountId', g.oppAccount]]),
    Project__c: new Map([['Account__c', g.projectAccount]]),
    acme__Subscription__c: new Map([['acme__Account__c', g.subscriptionAccount]]),
  }
  const data: DataSet = new Map()
  for (const [obj, f] of Object.entries(fns)) {
    data.set(obj, new GeneratedObject(PREFIX[obj], pod, g.live[obj], g.total[obj], f, fast[obj] ?? new Map()))
  }
  return data
}
