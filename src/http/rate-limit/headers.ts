/**
 * The RateLimit-Policy and RateLimit response fields of draft-ietf-httpapi-ratelimit-headers-11
 * (May 2026): Structured Field Lists (RFC 9651) of Items whose value is the policy's name as a
 * String, with Integer parameters. Cairn has two policies, "org" and "client" (docs/api.md, Rate
 * limits); the policy field is built once, the service-limit field per response from four numbers.
 */

/** §3: q is the quota in requests (the default quota unit, §3.1.2), w the window in seconds (§3.1.3). */
export function policyField(orgLimit: number, clientLimit: number, windowSeconds: number): string {
  return `"org";q=${orgLimit};w=${windowSeconds}, "client";q=${clientLimit};w=${windowSeconds}`
}

/** §4: r is the quota still available (§4.1.1), t the seconds until the window ends (§4.1.2). */
export function limitField(orgRemaining: number, clientRemaining: number, seconds: number): string {
  return `"org";r=${orgRemaining};t=${seconds}, "client";r=${clientRemaining};t=${seconds}`
}
