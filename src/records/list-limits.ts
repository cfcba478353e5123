/** Limits of list queries with no imports, so the web app can share them without server code. */

/** Ids one `ids` filter may name. */
export const MAX_IDS_FILTER = 100
