/**
 * What the web app shares with the server, through the capabilities' contracts (their browser-safe
 * doors) and the shared brand and text rules. The web app imports server code only through this
 * file, and nothing it reaches imports a Node.js module (test/architecture/import-rules.test.ts),
 * so the browser build carries no server internals.
 */
export * from './records/contracts.ts'
export * from './migration/contracts.ts'
export * from './events/contracts.ts'
export * from './imports/contracts.ts'
export { BRAND_NAME, FONT_FAMILY, markSvg } from './shared/brand.ts'
export { BLANK_MESSAGE, NOT_BLANK_PATTERN, isBlank } from './shared/required-text.ts'
