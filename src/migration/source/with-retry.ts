/**
 * The one retry policy of source-platform calls: exponential backoff with jitter, for
 * SourceTransient only. Quota, auth and request errors surface at once (REQUEST_LIMIT_EXCEEDED
 * must pause the run, not spin). jsforce's own retries are switched off (source-outbound.ts), so
 * a call costs at most `attempts` requests and about `maxMs`-bounded waits in between.
 *
 * POSTs are retried too: the only POST the reader sends creates a Bulk query job, and a second job
 * after a dropped connection is harmless (a query job has no side effect; the orphan expires).
 */
import { classifySourceError, SourceTransient, SourceUnreachable, type ClassifyContext, type SourceError } from './source-errors.ts'

export interface RetryOptions {
  /** Total tries including the first (default 6). */
  attempts?: number
  /** First backoff step in ms (default 1,000); step n waits about baseMs * 2^(n-1). */
  baseMs?: number
  /** Cap of one backoff step in ms (default 30,000). */
  maxMs?: number
  /** Called before each wait, e.g. to log "retrying in 2 s: SERVER_UNAVAILABLE". */
  onRetry?: (info: { attempt: number; delayMs: number; error: SourceError }) => void
  /** For tests: a deterministic random source in [0, 1). */
  random?: () => number
}

export const DEFAULT_RETRY: Required<Pick<RetryOptions, 'attempts' | 'baseMs' | 'maxMs'>> = { attempts: 6, baseMs: 1_000, maxMs: 30_000 }

/** Backoff before attempt `attempt + 1`: half of the exponential step fixed, half random ("equal jitter"). */
export function backoffMs(attempt: number, opts: { baseMs: number; maxMs: number }, random: () => number = Math.random): number {
  const step = Math.min(opts.maxMs, opts.baseMs * 2 ** (attempt - 1))
  return Math.round(step / 2 + random() * (step / 2))
}

/**
 * Runs `fn`, classifying what it throws; retries SourceTransient with backoff. After the last
 * attempt a network-level failure (nothing answered) becomes SourceUnreachable.
 */
export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}, ctx: ClassifyContext = {}): Promise<T> {
  const attempts = Math.max(1, opts.attempts ?? DEFAULT_RETRY.attempts)
  const timing = { baseMs: opts.baseMs ?? DEFAULT_RETRY.baseMs, maxMs: opts.maxMs ?? DEFAULT_RETRY.maxMs }
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn()
    } catch (raw) {
      const error = classifySourceError(raw, ctx)
      if (!(error instanceof SourceTransient)) throw error
      if (attempt >= attempts) {
        if (error.network) throw new SourceUnreachable(`${error.message} (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})`, error.errorCode, error)
        throw error
      }
      const delayMs = backoffMs(attempt, timing, opts.random)
      opts.onRetry?.({ attempt, delayMs, error })
      await new Promise((resolve) => setTimeout(resolve, delayMs))
    }
  }
}
