/**
 * Measures what the turn policy needs from this process between two turns: how busy the event loop
 * was (performance.eventLoopUtilization) and how many HTTP requests were served. The measuring is
 * here so that turn-policy.ts stays pure.
 */
import { performance } from 'node:perf_hooks'
import type { TurnLoad } from './turn-policy.ts'

export type ObservedLoad = Pick<TurnLoad, 'utilization' | 'elapsedMs' | 'requestsServed'>

export class LoadMeter {
  readonly #requestsServed: (() => number) | undefined
  #loop = performance.eventLoopUtilization()
  #at = performance.now()
  #requests: number

  /** `requestsServed`: the process's request counter, when it serves HTTP at all. */
  constructor(requestsServed: (() => number) | undefined) {
    this.#requestsServed = requestsServed
    this.#requests = requestsServed?.() ?? 0
  }

  /** The load since the last observation (or since the meter was made), observed at `at` (performance.now()). */
  observe(at: number): ObservedLoad {
    const loop = performance.eventLoopUtilization()
    const utilization = performance.eventLoopUtilization(loop, this.#loop).utilization
    const elapsedMs = at - this.#at
    this.#loop = loop
    this.#at = at
    if (!this.#requestsServed) return { utilization, elapsedMs, requestsServed: null }
    const requests = this.#requestsServed()
    const served = requests - this.#requests
    this.#requests = requests
    return { utilization, elapsedMs, requestsServed: served }
  }
}
