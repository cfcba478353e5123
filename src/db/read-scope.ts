/**
 * What the SQL layer knows of the request it serves, for read routing (src/db/read-replicas.ts):
 * whose credential it carries (read-your-writes is per session or token), whether it has written
 * (a request that wrote reads its own writes from the primary), and, once looked up, the WAL
 * position the credential's last write reached. The HTTP layer opens one per request
 * (src/http/plugins/read-routing.ts); work outside a request has none and reads from the primary.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface ReadScope {
  /** The credential's key (a hash, never the secret), computed when first needed; null: anonymous. */
  credential(): string | null
  /** A GET or HEAD: what it writes in passing (a client's last use) is not its caller's write. */
  safe: boolean
  /** Set by the primary's connections when an unsafe request sends anything but a SELECT. */
  wrote: boolean
  /** The position a replica must have replayed to serve this request; undefined until looked up. */
  required?: bigint
}

export const readScopes = new AsyncLocalStorage<ReadScope>()

/** A statement that may write (or opens a transaction that may): anything but a plain SELECT. */
export function markIfWriting(text: string): void {
  const scope = readScopes.getStore()
  if (scope && !scope.safe && !scope.wrote && !/^\s*select\b/i.test(text)) scope.wrote = true
}
