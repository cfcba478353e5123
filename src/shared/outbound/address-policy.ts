/**
 * Which IP addresses outbound requests (webhooks, client metadata documents, the source platform)
 * may reach: public unicast only, unless the operator allows private ones (ALLOW_PRIVATE_OUTBOUND).
 * An IPv4 address may not hide inside an IPv6 one: the forms that embed it are either refused as a
 * whole block (refused-blocks.ts) or decoded and their IPv4 checked (embedded-ipv4.ts).
 * docs/webhooks.md ("Outbound address guard") states the rule.
 */
import { isatapIpv4, nat64WellKnownIpv4 } from './embedded-ipv4.ts'
import { inPrefix, ipv4Number, ipv6Number } from './ip-number.ts'
import { GLOBAL_UNICAST_IPV6, REFUSED_IPV4, REFUSED_IPV6 } from './refused-blocks.ts'

export function isPublicAddress(address: string): boolean {
  const v4 = ipv4Number(address)
  if (v4 !== null) return isPublicIpv4(v4)
  const v6 = ipv6Number(address)
  return v6 !== null && isPublicIpv6(v6)
}

function isPublicIpv4(v4: bigint): boolean {
  return !REFUSED_IPV4.some((block) => inPrefix(4, v4, block))
}

function isPublicIpv6(v6: bigint): boolean {
  const translated = nat64WellKnownIpv4(v6)
  if (translated !== null) return isPublicIpv4(translated)
  if (REFUSED_IPV6.some((block) => inPrefix(6, v6, block))) return false
  // Whatever a future transition form or reserved use outside 2000::/3 holds, it is not a public host.
  if (!inPrefix(6, v6, GLOBAL_UNICAST_IPV6)) return false
  const isatap = isatapIpv4(v6)
  return isatap === null || isPublicIpv4(isatap)
}
