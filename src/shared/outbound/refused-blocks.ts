/**
 * The address blocks outbound requests never reach: every entry of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (RFC 6890 and its updates; the registries as they stood with
 * their newest entry, 100:0:0:1::/64 of 2025-04), whatever an entry's "Globally Reachable" column
 * says (no webhook receiver or source platform lives at an AS112, AMT or PCP anycast address),
 * plus multicast, the deprecated site-local block and the IPv4-embedding forms the registry does
 * not list. The one registry entry not refused here is 64:ff9b::/96: address-policy.ts decodes it.
 * test/shared/outbound/ keeps the registries' CSV files and checks this table against them.
 */
import { prefix, type Prefix } from './ip-number.ts'

export interface RefusedBlock extends Prefix {
  cidr: string
  why: string
}

const table = (rows: [string, string][]): RefusedBlock[] => rows.map(([cidr, why]) => ({ ...prefix(cidr), cidr, why }))

export const REFUSED_IPV4 = table([
  ['0.0.0.0/8', 'RFC 791 §3.2 "this network" (0.0.0.0/32: RFC 1122 §3.2.1.3)'],
  ['10.0.0.0/8', 'RFC 1918 private use'],
  ['100.64.0.0/10', 'RFC 6598 shared address space (carrier-grade NAT)'],
  ['127.0.0.0/8', 'RFC 1122 §3.2.1.3 loopback'],
  ['169.254.0.0/16', 'RFC 3927 link-local (cloud metadata services at 169.254.169.254)'],
  ['172.16.0.0/12', 'RFC 1918 private use'],
  ['192.0.0.0/24', 'RFC 6890 §2.1 IETF protocol assignments (RFC 7335, 7600, 7723, 8155, 8880 inside)'],
  ['192.0.2.0/24', 'RFC 5737 documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'RFC 7535 AS112-v4'],
  ['192.52.193.0/24', 'RFC 7450 AMT'],
  ['192.88.99.0/24', 'RFC 7526 deprecated 6to4 relay anycast (192.88.99.2/32: RFC 6751 6a44 relay)'],
  ['192.168.0.0/16', 'RFC 1918 private use'],
  ['192.175.48.0/24', 'RFC 7534 AS112 direct delegation'],
  ['198.18.0.0/15', 'RFC 2544 benchmarking'],
  ['198.51.100.0/24', 'RFC 5737 documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'RFC 5737 documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'RFC 5771 multicast (not in the special-purpose registry)'],
  ['240.0.0.0/4', 'RFC 1112 §4 reserved (255.255.255.255/32: RFC 919 §7 limited broadcast)'],
])

/** Public unicast IPv6 is only ever allocated from here (IANA IPv6 Address Space registry; RFC 3587 §3). */
export const GLOBAL_UNICAST_IPV6 = prefix('2000::/3')

export const REFUSED_IPV6 = table([
  ['::/128', 'RFC 4291 §2.5.2 unspecified'],
  ['::1/128', 'RFC 4291 §2.5.3 loopback'],
  ['::/96', 'RFC 4291 §2.5.5.1 IPv4-compatible (deprecated), an IPv4 in the last 32 bits'],
  ['::ffff:0:0/96', 'RFC 4291 §2.5.5.2 IPv4-mapped, an IPv4 in the last 32 bits'],
  ['::ffff:0:0:0/96', 'RFC 2765 §2.1 IPv4-translated (SIIT), an IPv4 in the last 32 bits'],
  ['64:ff9b:1::/48', 'RFC 8215 local-use IPv4/IPv6 translation: the operator picks the prefix length (RFC 6052 §2.2), so the whole block'],
  ['100::/64', 'RFC 6666 discard-only'],
  ['100:0:0:1::/64', 'RFC 9780 dummy prefix'],
  ['2001::/23', 'RFC 2928 IETF protocol assignments'],
  ['2001::/32', 'RFC 4380 Teredo: server IPv4 in bits 32-63, client IPv4 (inverted) in the last 32 bits'],
  ['2001:1::1/128', 'RFC 7723 PCP anycast'],
  ['2001:1::2/128', 'RFC 8155 TURN anycast'],
  ['2001:1::3/128', 'RFC 9665 DNS-SD service registration anycast'],
  ['2001:2::/48', 'RFC 5180 benchmarking'],
  ['2001:3::/32', 'RFC 7450 AMT'],
  ['2001:4:112::/48', 'RFC 7535 AS112-v6'],
  ['2001:10::/28', 'RFC 4843 ORCHID (deprecated)'],
  ['2001:20::/28', 'RFC 7343 ORCHIDv2'],
  ['2001:30::/28', 'RFC 9374 drone remote ID entity tags'],
  ['2001:db8::/32', 'RFC 3849 documentation'],
  ['2002::/16', 'RFC 3056 §2 6to4: an IPv4 in bits 16-47'],
  ['2620:4f:8000::/48', 'RFC 7534 AS112 direct delegation'],
  ['3fff::/20', 'RFC 9637 documentation'],
  ['5f00::/16', 'RFC 9602 segment routing (SRv6) SIDs'],
  ['fc00::/7', 'RFC 4193 unique local'],
  ['fe80::/10', 'RFC 4291 §2.5.6 link-local'],
  ['fec0::/10', 'RFC 3879 site-local (deprecated)'],
  ['ff00::/8', 'RFC 4291 §2.7 multicast'],
])
