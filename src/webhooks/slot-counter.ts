/**
 * The dispatcher's in-flight accounting: how many deliveries are in an HTTP exchange (the sending
 * slots, at most `concurrency`), how many have finished it and wait for their outcome to be written,
 * and both per webhook. From these it says how many more a claim may take and when claiming should
 * resume. No I/O: the dispatcher tells it what happened.
 *
 * Claimed deliveries whose outcome is not yet written are bounded at UNWRITTEN_PER_SLOT sending
 * slots' worth: if the database falls behind, claiming pauses rather than piling outcomes up in
 * memory.
 */
export const UNWRITTEN_PER_SLOT = 4

export class SlotCounter {
  readonly #concurrency: number
  readonly #maxUnwritten: number
  #sending = 0
  #unwritten = 0
  #sentSinceTurn = 0
  // Claiming paused because too many outcomes wait to be written (not for want of sending slots).
  #waitingForWrites = false
  // Sending or unwritten, per webhook id; absent when zero.
  readonly #perWebhook = new Map<string, number>()

  constructor(concurrency: number) {
    this.#concurrency = concurrency
    this.#maxUnwritten = concurrency * UNWRITTEN_PER_SLOT
  }

  get sending(): number {
    return this.#sending
  }

  get unwritten(): number {
    return this.#unwritten
  }

  /** Nothing in an exchange and no outcome waiting to be written. */
  get empty(): boolean {
    return this.#sending === 0 && this.#unwritten === 0
  }

  /** Deliveries claimed but not yet written for this webhook (sending or waiting to be written). */
  inFlight(webhookId: string): number {
    return this.#perWebhook.get(webhookId) ?? 0
  }

  /** How many deliveries a claim may take now (0 or less: none). */
  room(): number {
    return Math.min(this.#concurrency - this.#sending, this.#unwrittenRoom())
  }

  /** The turn's claim size is decided: remember whether claiming now waits for outcomes to be written. */
  claimPlanned(claim: number): void {
    this.#waitingForWrites = claim <= 0 && this.#unwrittenRoom() <= 0
  }

  /** A claimed delivery takes a sending slot. */
  startSending(webhookId: string): void {
    this.#sending++
    this.#sentSinceTurn++
    this.#perWebhook.set(webhookId, this.inFlight(webhookId) + 1)
  }

  /** Nothing was sent after all (the delivery could not be prepared): its slot is free, nothing to write. */
  abandon(webhookId: string): void {
    this.#sending--
    this.#release(webhookId)
  }

  /**
   * The exchange is over: its slot is free, its outcome waits to be written. True when so few are
   * sending that a claim should refill the slots (in batches, not one claim per finished exchange).
   */
  sent(): boolean {
    this.#sending--
    this.#unwritten++
    return this.#sending <= this.#concurrency / 2
  }

  /** The outcome is written (or given up on). True when a claim paused for writes may go now. */
  written(webhookId: string): boolean {
    this.#unwritten--
    this.#release(webhookId)
    if (this.#waitingForWrites && this.#unwrittenRoom() >= this.#concurrency / 2) {
      this.#waitingForWrites = false
      return true
    }
    return false
  }

  /** Deliveries started since the last call (the turn policy compares them with requests served). */
  takeSentSinceTurn(): number {
    const sent = this.#sentSinceTurn
    this.#sentSinceTurn = 0
    return sent
  }

  #unwrittenRoom(): number {
    return this.#maxUnwritten - this.#sending - this.#unwritten
  }

  #release(webhookId: string): void {
    const left = this.inFlight(webhookId) - 1
    if (left > 0) this.#perWebhook.set(webhookId, left)
    else this.#perWebhook.delete(webhookId)
  }
}
