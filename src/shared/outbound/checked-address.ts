/**
 * Where an outbound request may connect: the host resolved and every address checked against the
 * policy (address-policy.ts). `resolveChecked` looks up every time (registration checks);
 * `checkedAddress` keeps a passed check for a few seconds per host, so a busy webhook endpoint costs
 * one lookup per interval instead of one per delivery. Only addresses that passed are kept, and the
 * caller connects to exactly the address returned, so a kept entry can never lead to an unchecked
 * address; a DNS change is noticed within CHECKED_TTL_MS.
 */
import dns from 'node:dns'
import net from 'node:net'
import { isPublicAddress } from './address-policy.ts'
import { OutboundRefused } from './outbound-refused.ts'

export interface CheckedAddress {
  address: string
  family: number
}

/** Resolves a host and refuses it when any address is not public (unless allowed). */
export async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<CheckedAddress> {
  const host = hostname.replace(/^\[|\]$/g, '')
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.promises.lookup(host, { all: true, verbatim: true }).catch(() => {
    throw new OutboundRefused(`could not resolve ${host}`)
  })
  if (addresses.length === 0) throw new OutboundRefused(`could not resolve ${host}`)
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address))
    if (bad) throw new OutboundRefused(`${host} resolves to a private or reserved address (${bad.address})`)
  }
  return addresses[0]
}

/** How long a passed check is reused: short next to DNS TTLs, long next to the gap between deliveries. */
export const CHECKED_TTL_MS = 10_000
const MAX_KEPT = 1000
const kept = new Map<string, { checked: CheckedAddress; until: number }>()

/** A passed check of this host under this policy that is still fresh, or null. */
export function keptCheck(hostname: string, allowPrivate: boolean): CheckedAddress | null {
  const entry = kept.get(allowPrivate ? `+${hostname}` : `-${hostname}`)
  return entry && entry.until > performance.now() ? entry.checked : null
}

/** `resolveChecked`, reusing a passed check for CHECKED_TTL_MS. Refusals are not kept. */
export async function checkedAddress(hostname: string, allowPrivate: boolean): Promise<CheckedAddress> {
  const fresh = keptCheck(hostname, allowPrivate)
  if (fresh) return fresh
  const checked = await resolveChecked(hostname, allowPrivate)
  if (kept.size >= MAX_KEPT) kept.clear()
  kept.set(allowPrivate ? `+${hostname}` : `-${hostname}`, { checked, until: performance.now() + CHECKED_TTL_MS })
  return checked
}
