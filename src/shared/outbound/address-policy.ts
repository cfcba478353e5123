/**
 * Which IP addresses outbound requests (webhooks, client metadata documents, the source platform)
 * may reach: public unicast only, unless the operator allows private ones. Each range names the RFC
 * that reserves it (IANA special-purpose registries, RFC 6890).
 */
import net from 'node:net'

const blocked = new net.BlockList()
const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'RFC 791 "this network"'],
  ['10.0.0.0', 8, 'RFC 1918 private'],
  ['100.64.0.0', 10, 'RFC 6598 shared address space (CGN)'],
  ['127.0.0.0', 8, 'RFC 1122 loopback'],
  ['169.254.0.0', 16, 'RFC 3927 link-local (cloud metadata at 169.254.169.254)'],
  ['172.16.0.0', 12, 'RFC 1918 private'],
  ['192.0.0.0', 24, 'RFC 6890 IETF protocol assignments'],
  ['192.0.2.0', 24, 'RFC 5737 documentation'],
  ['192.88.99.0', 24, 'RFC 7526 6to4 relay anycast'],
  ['192.168.0.0', 16, 'RFC 1918 private'],
  ['198.18.0.0', 15, 'RFC 2544 benchmarking'],
  ['198.51.100.0', 24, 'RFC 5737 documentation'],
  ['203.0.113.0', 24, 'RFC 5737 documentation'],
  ['224.0.0.0', 4, 'RFC 5771 multicast'],
  ['240.0.0.0', 4, 'RFC 1112 reserved, and 255.255.255.255 broadcast'],
]
const V6: [string, number, string][] = [
  ['::', 128, 'RFC 4291 unspecified'],
  ['::1', 128, 'RFC 4291 loopback'],
  ['100::', 64, 'RFC 6666 discard-only'],
  ['2001:db8::', 32, 'RFC 3849 documentation'],
  ['2001::', 23, 'RFC 2928 IETF protocol assignments'],
  ['fc00::', 7, 'RFC 4193 unique local'],
  ['fe80::', 10, 'RFC 4291 link-local'],
  ['fec0::', 10, 'RFC 3879 deprecated site-local'],
  ['ff00::', 8, 'RFC 4291 multicast'],
]
for (const [net4, prefix] of V4) blocked.addSubnet(net4, prefix, 'ipv4')
for (const [net6, prefix] of V6) blocked.addSubnet(net6, prefix, 'ipv6')

/** The IPv4 address an IPv6 address carries, for the forms that embed one. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase()
  // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2 IPv4-mapped), ::a.b.c.d (deprecated compatible),
  // 64:ff9b::a.b.c.d (RFC 6052 NAT64): the hex forms are normalised by expanding first.
  const groups = expandIpv6(lower)
  if (!groups) return null
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0)
  if (zeros(5) && groups[5] === 0xffff) return v4(groups[6], groups[7])
  if (zeros(6) && (groups[6] !== 0 || groups[7] > 1)) return v4(groups[6], groups[7])
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return v4(groups[6], groups[7])
  return null
}

function expandIpv6(address: string): number[] | null {
  let text = address.split('%')[0]
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const p = dotted[1].split('.').map(Number)
    text = text.slice(0, -dotted[1].length) + `${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`
  }
  const [head, tail] = text.split('::')
  const h = head ? head.split(':') : []
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : []
  const missing = 8 - h.length - t.length
  if (tail === undefined && h.length !== 8) return null
  const all = [...h, ...Array(Math.max(0, missing)).fill('0'), ...t]
  if (all.length !== 8) return null
  return all.map((g) => parseInt(g, 16))
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address)
  if (family === 4) return !blocked.check(address, 'ipv4')
  if (family === 6) {
    const v4 = embeddedIpv4(address)
    if (v4) return !blocked.check(v4, 'ipv4')
    return !blocked.check(address.split('%')[0], 'ipv6')
  }
  return false
}
