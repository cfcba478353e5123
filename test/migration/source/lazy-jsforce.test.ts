/**
 * jsforce and the undici it brings cost a process about 40 MB of memory, so the service loads them
 * on the first use of the source-platform client (source-outbound.ts `guardedJsforce`), never at
 * start, and installs the outbound guard before anything can use them. Checked in a process of its
 * own (fixtures/jsforce-loading.ts): the test runner's own process may have loaded jsforce already.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

describe('loading the source-platform client', () => {
  it('is not done at start, and the first use finds the outbound guard installed', () => {
    const script = path.join(import.meta.dirname, 'fixtures/jsforce-loading.ts')
    const out = execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ALLOW_PRIVATE_OUTBOUND: 'false' } })
    const result = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(result.atStart).toBe(false)
    expect(result.afterFirstUse).toBe(true)
    // Refused by the address policy at connect time (guarded-request.ts wording), not a connection error.
    expect(result.refused).toMatch(/private or reserved address/)
  }, 90_000)
})
