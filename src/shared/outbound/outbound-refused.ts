/**
 * The one error of outbound requests: a destination the guard refuses, or an exchange that failed
 * (refused connection, timeout, dropped socket). `reason` is worded for the person who configured
 * the destination.
 */
export class OutboundRefused extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.reason = reason
  }
}
