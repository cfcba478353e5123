/**
 * What a job does with an error: stop quietly (another process took over), end as cancelled, pause
 * until the source platform's allowance returns, or fail with a reason an administrator can act on.
 * Internal errors are logged and described generically (their text may hold anything).
 */
import { CancelRequested, ClaimLost } from './claim-keeper.ts'
import { PageLockTimeout } from '../import/page-import.ts'
import { SourceAuthFailed, SourceQuotaExceeded, SourceRequestFailed, SourceTransient, SourceUnreachable } from '../source/source-errors.ts'

export type Failure =
  | { kind: 'stop' }
  | { kind: 'cancelled' }
  | { kind: 'paused'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'internal'; reason: string }

export function describeFailure(err: unknown, during: 'analysis' | 'import'): Failure {
  if (err instanceof ClaimLost) return { kind: 'stop' }
  if (err instanceof CancelRequested) return { kind: 'cancelled' }
  if (err instanceof SourceQuotaExceeded) {
    const reason = `The source platform's daily API allowance is used up (${err.message}).`
    // An analysis is short: it fails and can be started again; an import waits and continues.
    return during === 'import' ? { kind: 'paused', reason: `${reason} The import waits and continues when allowance returns.` } : { kind: 'failed', reason: `${reason} Start the analysis again later.` }
  }
  if (err instanceof SourceAuthFailed) return { kind: 'failed', reason: `The source platform refused the credentials: ${err.message} Connect again to continue.` }
  if (err instanceof SourceUnreachable) return { kind: 'failed', reason: `The source platform could not be reached: ${err.message}` }
  if (err instanceof SourceTransient) return { kind: 'failed', reason: `The source platform kept failing after several retries: ${err.message}` }
  if (err instanceof SourceRequestFailed) return { kind: 'failed', reason: `The source platform answered with an error: ${err.message}` }
  if (err instanceof PageLockTimeout) return { kind: 'failed', reason: `${err.message} Records imported so far are kept; a new migration of the same source updates them rather than duplicating them.` }
  return { kind: 'internal', reason: `The ${during} stopped on an internal error; the details are in the service log. Records imported so far are kept.` }
}
