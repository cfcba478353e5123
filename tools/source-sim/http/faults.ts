// Owns fault injection for resilience tests: 500/503 on a share of calls, QUERY_TIMEOUT on a share
// of queries, slow responses, dropped connections. Shares are applied deterministically (every
// 1/rate-th matching call), so a test that sets `errorRate: 0.5` gets exactly every second call.

export interface FaultConfig {
  /** Share (0..1) of API calls answered with `errorStatus`. */
  errorRate: number
  errorStatus: 500 | 503
  /** Share of query calls answered 400 QUERY_TIMEOUT. */
  queryTimeoutRate: number
  /** Share of API calls whose connection is destroyed without a response. */
  dropRate: number
  /** Added latency per API call, in ms. */
  delayMs: number
  /** Only calls whose path contains this substring are affected (empty: all API calls). */
  pathContains: string
  /**
   * Only calls whose URL, percent-decoded, matches this regular expression are affected (empty:
   * no filter). A substring cannot single out describeGlobal (`/sobjects`, a prefix of every
   * describe) or one SOQL query (`q=SELECT ... FROM User`); a pattern can.
   */
  pathPattern: string
}

export const NO_FAULTS: FaultConfig = { errorRate: 0, errorStatus: 503, queryTimeoutRate: 0, dropRate: 0, delayMs: 0, pathContains: '', pathPattern: '' }

export type FaultDecision = 'drop' | 'error' | 'timeout' | null

export class Faults {
  config: FaultConfig = { ...NO_FAULTS }
  private counters = { error: 0, drop: 0, timeout: 0 }
  private pattern: RegExp | null = null

  set(partial: Partial<FaultConfig>): FaultConfig {
    const next = { ...this.config, ...partial }
    for (const k of ['errorRate', 'queryTimeoutRate', 'dropRate'] as const) {
      const v = Number(next[k])
      if (!(v >= 0 && v <= 1)) throw new Error(`${k} must be between 0 and 1`)
      next[k] = v
    }
    if (next.errorStatus !== 500 && next.errorStatus !== 503) throw new Error('errorStatus must be 500 or 503')
    next.delayMs = Math.max(0, Number(next.delayMs) || 0)
    next.pathPattern = typeof next.pathPattern === 'string' ? next.pathPattern : ''
    // Compiled once here, so a bad pattern is refused when set rather than on every call.
    this.pattern = next.pathPattern ? new RegExp(next.pathPattern) : null
    this.config = next
    this.counters = { error: 0, drop: 0, timeout: 0 }
    return next
  }

  reset(): void {
    this.set({ ...NO_FAULTS })
  }

  /** True on exactly a `rate` share of calls: when floor(k * rate) steps up. */
  private hit(kind: keyof Faults['counters'], rate: number): boolean {
    if (rate <= 0) return false
    const k = this.counters[kind]++
    return Math.floor((k + 1) * rate) > Math.floor(k * rate)
  }

  /** Whether a call to this path is subject to faults at all (pathContains filter). */
  applies(path: string): boolean {
    if (this.config.pathContains && !path.includes(this.config.pathContains)) return false
    return !this.pattern || this.pattern.test(safeDecode(path))
  }

  decide(path: string, isQuery: boolean): FaultDecision {
    const c = this.config
    if (!this.applies(path)) return null
    if (this.hit('drop', c.dropRate)) return 'drop'
    if (this.hit('error', c.errorRate)) return 'error'
    if (isQuery && this.hit('timeout', c.queryTimeoutRate)) return 'timeout'
    return null
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path.replace(/\+/g, ' '))
  } catch {
    return path
  }
}
