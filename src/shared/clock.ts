/** The service's notion of "now", injectable so that tests can move time (token expiry, backoff). */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  #ms: number
  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime()
  }
  now(): Date {
    return new Date(this.#ms)
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000
  }
}
