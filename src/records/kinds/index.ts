/** The eight record kinds of the spec, in table-creation order (a kind only references kinds above it, or itself). */
import type { KindName, RecordKind } from '../record-kind.ts'
import { accountKind } from './account.kind.ts'
import { contactKind } from './contact.kind.ts'
import { caseKind } from './case.kind.ts'
import { caseCommentKind } from './case-comment.kind.ts'
import { leadKind } from './lead.kind.ts'
import { opportunityKind } from './opportunity.kind.ts'
import { productKind } from './product.kind.ts'
import { activityKind } from './activity.kind.ts'

export const recordKinds: readonly RecordKind[] = [
  accountKind,
  contactKind,
  opportunityKind,
  leadKind,
  productKind,
  caseKind,
  caseCommentKind,
  activityKind,
]

export const kindsByName: Record<KindName, RecordKind> = Object.fromEntries(recordKinds.map((k) => [k.name, k])) as Record<
  KindName,
  RecordKind
>

export { accountKind, contactKind, caseKind, caseCommentKind, leadKind, opportunityKind, productKind, activityKind }
