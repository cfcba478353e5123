/**
 * The IANA special-purpose registries kept beside this file (README.md says from where and when),
 * and the address arithmetic the guard's tests build their inputs with. Written independently of
 * the guard's own parser, so a parsing mistake there cannot hide in the expectations.
 */
import { readFileSync } from 'node:fs'

export interface Block {
  family: 4 | 6
  cidr: string
  first: bigint
  last: bigint
  name: string
}

/** RFC 4180 CSV, quoted fields with doubled quotes and line breaks, as IANA writes it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const endField = () => {
    row.push(field)
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"'
      i++
    } else if (c === '"') {
      quoted = !quoted
    } else if (quoted || (c !== ',' && c !== '\n' && c !== '\r')) {
      field += c
    } else if (c === ',') {
      endField()
    } else if (c === '\n') {
      endField()
      rows.push(row)
      row = []
    }
  }
  if (field !== '' || row.length > 0) {
    endField()
    rows.push(row)
  }
  return rows
}

export function v4Value(text: string): bigint {
  const octets = text.split('.').map(Number)
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) throw new Error(`not IPv4: ${text}`)
  return octets.reduce((v, o) => (v << 8n) | BigInt(o), 0n)
}

/** Hex groups with at most one `::` (the registries write no dotted tails). */
export function v6Value(text: string): bigint {
  const [head, tail] = text.split('::')
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
  if (groups.length !== 8) throw new Error(`not IPv6: ${text}`)
  return groups.reduce((v, g) => (v << 16n) | BigInt(`0x${g}`), 0n)
}

export function block(cidr: string, name = cidr): Block {
  const [address, lengthText] = cidr.split('/')
  const family = address.includes(':') ? 6 : 4
  const bits = family === 4 ? 32n : 128n
  const hostBits = bits - BigInt(lengthText)
  const first = family === 4 ? v4Value(address) : v6Value(address)
  return { family, cidr, first, last: first | ((1n << hostBits) - 1n), name }
}

/** Every block a registry file lists; "192.0.0.170/32, 192.0.0.171/32" is two, "[2]" a footnote. */
export function registryBlocks(file: string): Block[] {
  const [header, ...rows] = parseCsv(readFileSync(new URL(file, import.meta.url), 'utf8'))
  if (header[0] !== 'Address Block' || header[8] !== 'Globally Reachable') throw new Error(`${file}: not IANA's columns`)
  return rows.flatMap(([blocks, name]) => blocks.split(',').map((cidr) => block(cidr.replace(/\[\d+\]/g, '').trim(), name)))
}

export const inside = (b: Block, family: 4 | 6, value: bigint) => b.family === family && value >= b.first && value <= b.last

export function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.')
}

function groupsOf(value: bigint): number[] {
  return [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((value >> shift) & 0xffffn))
}

/** Groups written RFC 5952 style: the longest run of two or more zero groups becomes `::`. */
function compress(groups: number[]): { head: string; tail: string; elided: boolean } {
  let best = { at: -1, length: 1 }
  for (let i = 0; i < groups.length; ) {
    let j = i
    while (j < groups.length && groups[j] === 0) j++
    if (j - i > best.length) best = { at: i, length: j - i }
    i = j > i ? j : i + 1
  }
  const hex = groups.map((g) => g.toString(16))
  if (best.at < 0) return { head: hex.join(':'), tail: '', elided: false }
  return { head: hex.slice(0, best.at).join(':'), tail: hex.slice(best.at + best.length).join(':'), elided: true }
}

/**
 * Spellings of one IPv6 address: compressed, upper case, every group with leading zeros, and the
 * last 32 bits in dotted notation, plain and compressed (RFC 4291 §2.2 allows each of them).
 */
export function v6Spellings(value: bigint): string[] {
  const groups = groupsOf(value)
  const full = compress(groups)
  const compressed = full.elided ? `${full.head}::${full.tail}` : full.head
  const dotted = v4Text(value & 0xffff_ffffn)
  const six = compress(groups.slice(0, 6))
  const mixedCompressed = six.elided ? `${six.head}::${six.tail}${six.tail ? ':' : ''}${dotted}` : `${six.head}:${dotted}`
  return [
    compressed,
    compressed.toUpperCase(),
    groups.map((g) => g.toString(16).padStart(4, '0')).join(':'),
    `${groups.slice(0, 6).map((g) => g.toString(16)).join(':')}:${dotted}`,
    mixedCompressed,
    mixedCompressed.toUpperCase(),
  ]
}
