/**
 * Where the guard meets a destination: an IP literal, or every address a host name resolves to
 * when the connection is made. IPv4 addresses hidden in IPv6 forms are refused on both paths, and
 * ALLOW_PRIVATE_OUTBOUND (allowPrivate) still lets them through.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import dns from 'node:dns'
import { checkedAddress, resolveChecked } from '../../../src/shared/outbound/checked-address.ts'
import { OutboundRefused } from '../../../src/shared/outbound/outbound-refused.ts'

// 127.0.0.1 or 169.254.169.254 inside each IPv6 form that can carry an IPv4 address.
const EMBEDDED = [
  '2002:7f00:1::', // 6to4 (RFC 3056)
  '2002:a9fe:a9fe:1:2:3:4:5',
  '64:ff9b::7f00:1', // NAT64 well-known prefix (RFC 6052)
  '64:ff9b:1:a9fe:a9:fe00::', // NAT64 local-use, /48 layout (RFC 8215, RFC 6052 §2.2)
  '::ffff:7f00:1', // IPv4-mapped (RFC 4291 §2.5.5.2)
  '::ffff:0:7f00:1', // IPv4-translated (RFC 2765)
  '::7f00:1', // IPv4-compatible (RFC 4291 §2.5.5.1)
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo client 127.0.0.1 (RFC 4380)
  '2606:4700::200:5efe:a9fe:a9fe', // ISATAP identifier on a public prefix (RFC 5214)
]

afterEach(() => vi.restoreAllMocks())

describe('IPv4 hidden in IPv6, at the outbound guard', () => {
  it.each(EMBEDDED)('refuses the literal %s, and allows it only when private addresses are allowed', async (address) => {
    await expect(resolveChecked(address, false)).rejects.toThrow(new OutboundRefused(`${address} resolves to a private or reserved address (${address})`))
    await expect(resolveChecked(`[${address}]`, false)).rejects.toBeInstanceOf(OutboundRefused)
    await expect(checkedAddress(address, false)).rejects.toBeInstanceOf(OutboundRefused)
    expect(await resolveChecked(address, true)).toEqual({ address, family: 6 })
  })

  // The machine's resolver cannot be pointed at a test zone, so its answer is stubbed; everything
  // after the lookup is the code connections go through.
  it.each(EMBEDDED)('refuses a host name that resolves to %s among public addresses, at connect time too', async (address) => {
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '93.184.215.14', family: 4 },
      { address, family: 6 },
    ] as never)
    const host = `rebound-${Math.random().toString(36).slice(2)}.example`
    await expect(resolveChecked(host, false)).rejects.toThrow(`${host} resolves to a private or reserved address (${address})`)
    await expect(checkedAddress(host, false)).rejects.toThrow(`${host} resolves to a private or reserved address (${address})`)
    expect(await resolveChecked(host, true)).toEqual({ address: '93.184.215.14', family: 4 })
    expect(lookup).toHaveBeenCalledWith(host, { all: true, verbatim: true })
  })

  it('passes a host name whose every address is public, NAT64 of a public IPv4 included', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '64:ff9b::5db8:d70e', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ] as never)
    expect(await resolveChecked('dns64.example', false)).toEqual({ address: '64:ff9b::5db8:d70e', family: 6 })
  })
})
