// Owns what every generated field function shares: seed, org pod, per-object counts, the
// relationship spreads and id helpers, plus the audit fields (created/modified dates that grow
// with the index, so CreatedDate order = Id order, and owners drawn from the users).
import { makeId } from '../ids.ts'
import { deletedCount } from './gen-plan.ts'
import { DAY, h, SPAN, START, sfDateTime } from './gen-util.ts'
import { Spread } from './spread.ts'

export const PREFIX: Record<string, string> = {
  User: '005', Account: '001', Contact: '003', Lead: '00Q', Opportunity: '006', Product2: '01t', Case: '500',
  CaseComment: '00a', Task: '00T', Event: '00U', Project__c: 'a00', acme__Subscription__c: 'a01',
}

export type Fns = Record<string, (i: number) => unknown>

export class GenCtx {
  readonly seed: number
  readonly pod: string
  readonly live: Record<string, number>
  readonly total: Record<string, number>
  readonly contactAccount: Spread
  readonly caseContact: Spread
  readonly commentCase: Spread
  readonly oppAccount: Spread
  readonly projectAccount: Spread
  readonly subscriptionAccount: Spread

  constructor(seed: number, pod: string, counts: Record<string, number>) {
    this.seed = seed
    this.pod = pod
    this.live = counts
    this.total = {}
    for (const [k, v] of Object.entries(counts)) this.total[k] = v + deletedCount(k, v)
    this.contactAccount = new Spread(counts.Contact, counts.Account, 7)
    this.caseContact = new Spread(counts.Case, counts.Contact, 3)
    this.commentCase = new Spread(counts.CaseComment, counts.Case, 5)
    this.oppAccount = new Spread(counts.Opportunity, counts.Account, 4)
    this.projectAccount = new Spread(counts.Project__c, counts.Account, 3)
    this.subscriptionAccount = new Spread(counts.acme__Subscription__c, counts.Account, 2)
  }

  id(obj: string, i: number): string | null {
    return i < 0 ? null : makeId(PREFIX[obj], this.pod, i)
  }

  /** A well-formed id of the object that matches no record: an orphaned reference. */
  orphanId(obj: string, j: number): string {
    return makeId(PREFIX[obj], this.pod, this.total[obj] + 1000 + (j % 997))
  }

  r(code: number, i: number, salt: number): number {
    return h(this.seed, code, i, salt)
  }

  createdMs(obj: string, i: number): number {
    const n = this.total[obj] || 1
    return START + Math.floor(((i + 0.5) * SPAN) / n)
  }

  userId(code: number, i: number, salt: number): string {
    return makeId('005', this.pod, this.r(code, i, salt) % this.live.User)
  }

  /** Audit fields shared by all objects; `code` salts the hash per object. */
  audit(obj: string, code: number, owner = true): Fns {
    const modifiedMs = (i: number) => this.createdMs(obj, i) + (this.r(code, i, 901) % 120) * DAY
    const fns: Fns = {
      IsDeleted: (i) => i >= this.live[obj],
      CreatedDate: (i) => sfDateTime(this.createdMs(obj, i)),
      CreatedById: (i) => this.userId(code, i, 902),
      LastModifiedDate: (i) => sfDateTime(modifiedMs(i)),
      LastModifiedById: (i) => this.userId(code, i, 903),
      SystemModstamp: (i) => sfDateTime(modifiedMs(i) + (this.r(code, i, 904) % 60000)),
    }
    if (owner) fns.OwnerId = (i) => this.userId(code, i, 905)
    return fns
  }
}
