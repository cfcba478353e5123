// Which records point at a record of this kind (an account's contacts, opportunities, cases,
// activities, child accounts; a contact's cases and activities...), found from the kinds' reference
// fields, with the columns their tab shows.
import { appKinds, type FieldDef, type RecordKind } from '../../kinds.ts'

export interface Relation {
  kind: RecordKind
  /** The reference field that points at the record (`account_id`). */
  field: FieldDef
  /** The tab's name and URL value. */
  key: string
  heading: string
  /** Table columns after the title: the kind's own, less the reference to this record. */
  columns: string[]
  /** A rare link (child accounts): its tab only appears once there is one. */
  optional: boolean
}

/** Tab order: people and deals before the service and the log. */
const ORDER = ['contact', 'opportunity', 'case', 'activity', 'account', 'lead', 'product']

export function relationsTo(kind: RecordKind): Relation[] {
  const out: Relation[] = []
  for (const ui of appKinds) {
    for (const field of ui.kind.fields) {
      if (field.type !== 'ref' || field.ref !== kind.name || !field.filter || field.readOnly) continue
      const child = field.name === 'parent_account_id'
      out.push({
        kind: ui.kind,
        field,
        key: child ? 'child-accounts' : ui.kind.path,
        heading: child ? 'Child accounts' : ui.kind.labelPlural,
        columns: ui.columns.filter((c) => c !== field.name),
        optional: child,
      })
    }
  }
  return out.sort((a, b) => ORDER.indexOf(a.kind.name) - ORDER.indexOf(b.kind.name))
}
