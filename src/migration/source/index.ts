/**
 * The source-platform client's only door: the SSRF guard for jsforce, the OAuth Connect helpers,
 * opening a connection from stored credentials, the analysis' metadata reader, the importer's
 * record reader, and the error family both act on.
 */
export { checkSourceUrl, configureSourceOutbound } from './source-outbound.ts'
export { SourceAuthFailed, SourceError, SourceQuotaExceeded, SourceRequestFailed, SourceTransient, SourceUnreachable, classifySourceError } from './source-errors.ts'
export { DEFAULT_RETRY, withRetry, type RetryOptions } from './with-retry.ts'
export { openSourceConnection, SourceConnection, type SourceConnectionOptions, type SourceCredentials, type SourceIdentity } from './source-connection.ts'
export { authorizationUrl, createPkcePair, exchangeCode, type SourceTokens } from './source-oauth.ts'
export { readSourceMetadata, type ReadMetadataOptions } from './metadata-reader.ts'
export { BULK_DEFAULT_BATCH, readPages, type ReadPage, type ReadPagesOptions } from './record-reader.ts'
export type { BulkPollOptions } from './bulk-pages.ts'
