/**
 * The IPv6 forms whose embedded IPv4 address decides whether they may be reached. Every other
 * form that embeds one (IPv4-mapped, -compatible and -translated, 6to4, Teredo, local-use NAT64)
 * lies in a block refused whole (refused-blocks.ts), so it needs no decoding.
 */
import { inPrefix, prefix } from './ip-number.ts'

const NAT64_WELL_KNOWN = prefix('64:ff9b::/96')
const LOW_32_BITS = 0xffff_ffffn

/**
 * RFC 6052 §2.1/§2.2: the well-known prefix is a /96 with the IPv4 in the last 32 bits. A DNS64
 * resolver hands these out for IPv4-only hosts. §3.1 keeps non-global IPv4 out of this prefix, but
 * anyone can publish such an AAAA record, so the IPv4 is checked.
 */
export function nat64WellKnownIpv4(v6: bigint): bigint | null {
  return inPrefix(6, v6, NAT64_WELL_KNOWN) ? v6 & LOW_32_BITS : null
}

/**
 * RFC 5214 §6.1: an ISATAP interface identifier is 000000ug 00000000 : 0x5efe : IPv4, on any /64
 * prefix (u = universal/local, g = individual/group, so 0000, 0100, 0200 or 0300 as hex).
 */
export function isatapIpv4(v6: bigint): bigint | null {
  const idHigh = (v6 >> 32n) & LOW_32_BITS
  return (idHigh & 0xfcff_ffffn) === 0x0000_5efen ? v6 & LOW_32_BITS : null
}
