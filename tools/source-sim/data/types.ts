// Owns the contract between data sources (generator, sObject-tree loader, automation metadata)
// and the query engine: an object's records are addressed by index, ids sort in index order, and
// values are read one field at a time so a query only computes the fields it selects or filters on.

export interface ObjectData {
  /** Records visible to /query: indices [0, live). */
  readonly live: number
  /** Including deleted records (IsDeleted = true), visible to /queryAll: indices [live, total). */
  readonly total: number
  id(index: number): string
  /** Index of the record with this 15- or 18-char id, or -1. */
  indexOf(id: string): number
  /** Value of a field by its canonical (describe) name; undefined/null both mean null. */
  value(index: number, field: string): unknown
  /** Optional: the value function of one field, resolved once (hot path when serving pages). */
  getter?(field: string): ((index: number) => unknown) | undefined
  /** Fast path for child subqueries: indices of children whose `field` equals parentId, or undefined if not known. */
  childrenOf?(field: string, parentId: string): ArrayLike<number> | undefined
}

export type DataSet = Map<string, ObjectData>
