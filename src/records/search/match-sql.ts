/**
 * The SQL of each way a field is searched (RecordField.search), shared by the search across kinds
 * and a list's `q` filter, written exactly as the expressions migrations 0015 and 0022 index (the
 * planner uses an expression index only for the same expression).
 */

/** An e-mail address's domain, lower-cased: `ada@Acme.example` -> `acme.example`. */
export const emailDomainSql = (column: string) => `lower(split_part(${column}, '@', 2))`

/**
 * `expr` starts with `lowered` (SQL of an already lower-cased text), as one range of a
 * (org_id, expr text_pattern_ops) btree: every value from the text itself up to the text followed
 * by U+10FFFF, which sorts after every character a value can continue it with (byte order).
 */
export const startsWithSql = (expr: string, lowered: string) => `${expr} ~>=~ ${lowered} AND ${expr} ~<~ (${lowered} || chr(1114111))`
