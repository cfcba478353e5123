/** What the web app's import dialog shares with CSV imports: how headers map, and what ends a row. */
export { dedupeKeysOf, importableFields, proposeMapping, withRememberedMapping } from './header-mapping.ts'
export { LINE_BREAKS } from './line-breaks.ts'
