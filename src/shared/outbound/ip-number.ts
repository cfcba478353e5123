/**
 * IP addresses as numbers, so that "is it inside this block" is one shift and one comparison.
 * Text is read by node:net (is it an address at all) and the WHATWG URL parser (its one canonical
 * spelling), not by hand: upper case, leading zeros, a dotted IPv4 tail and `::` all come out as
 * the same number, and anything either parser refuses is no address.
 */
import net from 'node:net'

/** The 32-bit value of a dotted-quad IPv4 address, or null. */
export function ipv4Number(text: string): bigint | null {
  if (!net.isIPv4(text)) return null
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n)
}

/**
 * The 128-bit value of an IPv6 address, or null. An address with a zone index (`fe80::1%eth0`) is
 * null too: a zone qualifies only a non-global address (RFC 4007 §6), never a public one.
 */
export function ipv6Number(text: string): bigint | null {
  if (!net.isIPv6(text) || text.includes('%')) return null
  let canonical: string
  try {
    // The URL serializer writes RFC 5952 text: lower-case hex groups, no dotted tail, one `::`.
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1)
  } catch {
    return null
  }
  const [head, tail] = canonical.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const elided = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length
  const groups = [...headGroups, ...Array<string>(elided).fill('0'), ...tailGroups]
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n)
}

/** A CIDR block: every address whose first `length` bits equal the network's. */
export interface Prefix {
  family: 4 | 6
  network: bigint
  length: number
}

/** Parses `network/length`; throws on a malformed one (the tables are fixed at build time). */
export function prefix(cidr: string): Prefix {
  const [address, lengthText] = cidr.split('/')
  const v4 = ipv4Number(address)
  const family = v4 === null ? 6 : 4
  const network = v4 ?? ipv6Number(address)
  const length = Number(lengthText)
  const bits = family === 4 ? 32 : 128
  if (network === null || !Number.isInteger(length) || length < 0 || length > bits) throw new Error(`not a CIDR block: ${cidr}`)
  return { family, network, length }
}

export function inPrefix(family: 4 | 6, value: bigint, block: Prefix): boolean {
  if (family !== block.family) return false
  const hostBits = BigInt((family === 4 ? 32 : 128) - block.length)
  return value >> hostBits === block.network >> hostBits
}
