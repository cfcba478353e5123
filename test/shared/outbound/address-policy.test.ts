/**
 * The outbound address guard against the IANA special-purpose registries (the CSV files beside
 * this file): every block they list is refused, first, last and random addresses alike; an IPv4
 * address hidden in any IPv6 form that embeds one is refused when that IPv4 is, and otherwise per
 * the rule in docs/webhooks.md (only the NAT64 well-known prefix and ISATAP identifiers on public
 * prefixes are decoded; every other embedding block is refused whole); random public addresses
 * pass; and none of it depends on how the address is spelled.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isPublicAddress } from '../../../src/shared/outbound/address-policy.ts'
import { block, inside, registryBlocks, v4Text, v6Spellings, type Block } from './registry.ts'

const IPV4_REGISTRY = registryBlocks('iana-ipv4-special-registry.csv')
const IPV6_REGISTRY = registryBlocks('iana-ipv6-special-registry.csv')

// The one registry entry that is decoded rather than refused: a DNS64 resolver synthesizes these
// for IPv4-only hosts (RFC 6052 §2.1), so the embedded IPv4 decides.
const NAT64_WELL_KNOWN = '64:ff9b::/96'

// Refused beyond the registries (docs/webhooks.md, "Outbound address guard").
const BEYOND_REGISTRY = [
  block('224.0.0.0/4', 'RFC 5771 multicast'),
  block('ff00::/8', 'RFC 4291 multicast'),
  block('fec0::/10', 'RFC 3879 site-local'),
  block('::/96', 'RFC 4291 §2.5.5.1 IPv4-compatible'),
  block('::ffff:0:0:0/96', 'RFC 2765 IPv4-translated'),
]

const REFUSED_V4 = [...IPV4_REGISTRY, ...BEYOND_REGISTRY].filter((b) => b.family === 4)
const REFUSED_V6 = [...IPV6_REGISTRY, ...BEYOND_REGISTRY].filter((b) => b.family === 6 && b.cidr !== NAT64_WELL_KNOWN)
const GLOBAL_UNICAST = block('2000::/3')

const RUNS = { numRuns: 200 }
const within = (b: Block) => fc.bigInt({ min: b.first, max: b.last })
const spellings = (family: 4 | 6, value: bigint) => (family === 4 ? [v4Text(value)] : v6Spellings(value))

const blockedV4 = fc.constantFrom(...REFUSED_V4).chain(within)
const publicV4 = fc.bigInt({ min: 0n, max: 0xffff_ffffn }).filter((v) => !REFUSED_V4.some((b) => inside(b, 4, v)))
const isatapId = (v6: bigint) => (((v6 >> 32n) & 0xffff_ffffn) & 0xfcff_ffffn) === 0x5efen
const publicV6 = fc
  .bigInt({ min: GLOBAL_UNICAST.first, max: GLOBAL_UNICAST.last })
  .filter((v) => !REFUSED_V6.some((b) => inside(b, 6, v)) && !isatapId(v))
const publicPrefix64 = publicV6.map((v) => v >> 64n)

function refusedEverySpelling(family: 4 | 6, value: bigint) {
  for (const text of spellings(family, value)) expect(isPublicAddress(text), text).toBe(false)
}
function allowedEverySpelling(family: 4 | 6, value: bigint) {
  for (const text of spellings(family, value)) expect(isPublicAddress(text), text).toBe(true)
}

describe('the registry files', () => {
  it('hold IANA’s entries, including the newest ones', () => {
    const cidrs = [...IPV4_REGISTRY, ...IPV6_REGISTRY].map((b) => b.cidr)
    for (const cidr of ['0.0.0.0/32', '192.0.0.170/32', '192.0.0.171/32', '255.255.255.255/32', '::ffff:0:0/96', '64:ff9b:1::/48', '100:0:0:1::/64', '2001:1::3/128', '3fff::/20', '5f00::/16']) {
      expect(cidrs).toContain(cidr)
    }
    expect(IPV4_REGISTRY).toHaveLength(26)
    expect(IPV6_REGISTRY).toHaveLength(25)
  })
})

describe('every special-purpose block is refused', () => {
  for (const b of [...REFUSED_V4, ...REFUSED_V6]) {
    it(`${b.cidr} (${b.name}): first, last and random addresses`, () => {
      refusedEverySpelling(b.family, b.first)
      refusedEverySpelling(b.family, b.last)
      fc.assert(fc.property(within(b), (v) => refusedEverySpelling(b.family, v)), RUNS)
    })
  }

  it('everything outside 2000::/3, the only space public unicast is allocated from, except the decoded NAT64 prefix', () => {
    const nat64 = block(NAT64_WELL_KNOWN)
    const outside = fc.oneof(fc.bigInt({ min: 0n, max: GLOBAL_UNICAST.first - 1n }), fc.bigInt({ min: GLOBAL_UNICAST.last + 1n, max: (1n << 128n) - 1n }))
    fc.assert(fc.property(outside.filter((v) => !inside(nat64, 6, v)), (v) => refusedEverySpelling(6, v)), RUNS)
  })
})

/** Each form that can carry an IPv4 address, as its RFC lays it out. */
const FORMS: { name: string; decoded: boolean; embed: fc.Arbitrary<(v4: bigint) => bigint> }[] = [
  // RFC 4291 §2.5.5.2: ::ffff:a.b.c.d
  { name: 'IPv4-mapped', decoded: false, embed: fc.constant((v4) => (0xffffn << 32n) | v4) },
  // RFC 4291 §2.5.5.1: ::a.b.c.d
  { name: 'IPv4-compatible', decoded: false, embed: fc.constant((v4) => v4) },
  // RFC 2765 §2.1: ::ffff:0:a.b.c.d
  { name: 'IPv4-translated (SIIT)', decoded: false, embed: fc.constant((v4) => (0xffffn << 48n) | v4) },
  // RFC 6052 §2.1: 64:ff9b::a.b.c.d
  { name: 'NAT64 well-known prefix', decoded: true, embed: fc.constant((v4) => (0x64ff9bn << 96n) | v4) },
  // RFC 8215 inside 64:ff9b:1::/48, the operator's prefix /48 to /96 laid out as RFC 6052 §2.2 says
  // (bits 64-71 zero, the IPv4 split around them, a suffix after it).
  {
    name: 'NAT64 local-use prefix',
    decoded: false,
    embed: fc.tuple(fc.constantFrom(48, 56, 64, 96), fc.bigInt({ min: 0n, max: (1n << 48n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 40n) - 1n })).map(
      ([length, operatorBits, suffix]) =>
        (v4: bigint) => {
          const operator = length === 48 ? 0n : (operatorBits >> BigInt(48 - (length - 48))) << BigInt(128 - length)
          const prefix = (0x64ff9b0001n << 80n) | (operator & ~(0xffn << 56n))
          if (length === 96) return prefix | v4
          if (length === 64) return prefix | (v4 << 24n) | (suffix & 0xff_ffffn)
          if (length === 56) return prefix | ((v4 >> 24n) << 64n) | ((v4 & 0xff_ffffn) << 32n) | (suffix & 0xffff_ffffn)
          return prefix | ((v4 >> 16n) << 64n) | ((v4 & 0xffffn) << 40n) | suffix
        },
    ),
  },
  // RFC 3056 §2: 2002:V4ADDR::/48, any subnet and interface identifier.
  { name: '6to4', decoded: false, embed: fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }).map((rest) => (v4: bigint) => (0x2002n << 112n) | (v4 << 80n) | rest) },
  // RFC 4380 §4: 2001:0:server IPv4:flags:port:client IPv4, port and client inverted. The IPv4 here
  // is once the server's and once the client's.
  {
    name: 'Teredo (server)',
    decoded: false,
    embed: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((low) => (v4: bigint) => (0x20010000n << 96n) | (v4 << 64n) | low),
  },
  {
    name: 'Teredo (client)',
    decoded: false,
    embed: fc.tuple(fc.bigInt({ min: 0n, max: 0xffff_ffffn }), fc.bigInt({ min: 0n, max: 0xffff_ffffn })).map(
      ([server, flagsAndPort]) => (v4: bigint) => (0x20010000n << 96n) | (server << 64n) | (flagsAndPort << 32n) | (v4 ^ 0xffff_ffffn),
    ),
  },
  // RFC 5214 §6.1: prefix/64, then 000000ug00000000:5efe and the IPv4; on a public prefix the IPv4
  // decides, on a refused one the prefix does.
  {
    name: 'ISATAP on a public prefix',
    decoded: true,
    embed: fc.tuple(publicPrefix64, fc.constantFrom(0n, 1n, 2n, 3n)).map(([prefix, ug]) => (v4: bigint) => (prefix << 64n) | (((ug << 24n) | 0x5efen) << 32n) | v4),
  },
  {
    name: 'ISATAP on a link-local prefix',
    decoded: false,
    embed: fc.tuple(fc.bigInt({ min: 0n, max: (1n << 54n) - 1n }), fc.constantFrom(0n, 1n, 2n, 3n)).map(
      ([subnet, ug]) => (v4: bigint) => (((0xfe80n << 48n) | subnet) << 64n) | (((ug << 24n) | 0x5efen) << 32n) | v4,
    ),
  },
]

describe('an IPv4 address hidden in an IPv6 form', () => {
  for (const form of FORMS) {
    it(`${form.name}: refused when it embeds any address of a refused IPv4 block`, () => {
      for (const b of REFUSED_V4) {
        fc.assert(fc.property(form.embed, (embed) => {
          refusedEverySpelling(6, embed(b.first))
          refusedEverySpelling(6, embed(b.last))
        }), { numRuns: 5 })
      }
      fc.assert(fc.property(form.embed, blockedV4, (embed, v4) => refusedEverySpelling(6, embed(v4))), RUNS)
    })

    it(`${form.name}: ${form.decoded ? 'allowed' : 'refused as a whole block'} when it embeds a public IPv4`, () => {
      const check = form.decoded ? allowedEverySpelling : refusedEverySpelling
      fc.assert(fc.property(form.embed, publicV4, (embed, v4) => check(6, embed(v4))), RUNS)
    })
  }

  it('the issue’s example, 6to4 of 127.0.0.1, in any spelling', () => {
    for (const text of ['2002:7f00:1::', '2002:7F00:0001::', '2002:7f00:1::0.0.0.0', '2002:7f00:0001:0000:0000:0000:0000:0000']) expect(isPublicAddress(text), text).toBe(false)
  })
})

describe('public addresses', () => {
  it('random public IPv4 addresses pass', () => {
    fc.assert(fc.property(publicV4, (v) => allowedEverySpelling(4, v)), RUNS)
  })

  it('random public unicast IPv6 addresses pass, however they are spelled', () => {
    fc.assert(fc.property(publicV6, (v) => allowedEverySpelling(6, v)), RUNS)
  })

  it('no address with a zone index passes: a zone belongs to scoped addresses only (RFC 4007 §6)', () => {
    fc.assert(fc.property(publicV6, fc.constantFrom('eth0', '1', 'lo'), (v, zone) => {
      for (const text of v6Spellings(v)) expect(isPublicAddress(`${text}%${zone}`), `${text}%${zone}`).toBe(false)
    }), RUNS)
  })

  it('what is not an address does not pass', () => {
    for (const text of ['', 'example.com', '127.1', '0x7f.0.0.1', '2130706433', '[::1]', '::ffff:127.0.0.1.', '1:2:3:4:5:6:7:8:9', '00000::1', '::ffff:256.0.0.1']) {
      expect(isPublicAddress(text), text).toBe(false)
    }
  })
})
