// Owns the daily API request allowance per org: every authenticated REST call spends one, the
// `Sforce-Limit-Info: api-usage=used/max` header reports it, and at zero calls answer
// 403 REQUEST_LIMIT_EXCEEDED until the window (24h) rolls or a control reset.
export class Allowance {
  max: number
  used = 0
  private windowStart = Date.now()

  constructor(max: number) {
    this.max = max
  }

  private roll(): void {
    if (Date.now() - this.windowStart >= 86_400_000) {
      this.windowStart = Date.now()
      this.used = 0
    }
  }

  /** Spends one call; false when the allowance is exhausted. */
  spend(): boolean {
    this.roll()
    if (this.used >= this.max) return false
    this.used++
    return true
  }

  exhaust(): void {
    this.used = this.max
  }

  reset(): void {
    this.used = 0
    this.windowStart = Date.now()
  }

  header(): string {
    return `api-usage=${Math.min(this.used, this.max)}/${this.max}`
  }
}
