import { describe, expect, it } from 'vitest'
import { isPublicAddress } from '../../../src/shared/outbound/address-policy.ts'

describe('outbound address policy (SSRF guard)', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '::127.0.0.1',
    // IPv4 hidden in IPv6 transition forms: 6to4, local-use NAT64, SIIT, Teredo, ISATAP (all of 127.0.0.1 or 169.254.169.254).
    '2002:7f00:1::', '64:ff9b:1::7f00:1', '::ffff:0:7f00:1', '2001:0:4136:e378:8000:63bf:80ff:fffe', '2606:4700::5efe:a9fe:a9fe',
    // Blocks refused whole whatever they embed: IPv4-mapped, 6to4 and Teredo of 8.8.8.8.
    '::ffff:8.8.8.8', '2002:808:808::1', '2001:0:808:808::1',
    'fe80::1%eth0', 'not-an-ip',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false))

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '64:ff9b::8.8.8.8', '2606:4700::5efe:808:808'])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true))
})
