/**
 * When to try again and when to give up (docs/decisions.md, Webhooks: retries for about a day).
 * Attempt 1 is immediate; after a failed attempt n the next waits RETRY_DELAYS[n - 1].
 */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600] as const
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_SECONDS = 24 * 3600
export const DELIVERY_TIMEOUT_MS = 10_000

/** Null when the delivery has had its last automatic attempt. */
export function nextAttemptAt(attemptsMade: number, now: Date): Date | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null
  return new Date(now.getTime() + RETRY_DELAYS_SECONDS[attemptsMade - 1] * 1000)
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300
}

/** 410 Gone means the receiver asks to stop: the endpoint is disabled at once. */
export function isGone(status: number): boolean {
  return status === 410
}
