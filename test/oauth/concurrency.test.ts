/**
 * Many clients' apps exchange codes at once: concurrent exchanges of one client must all succeed
 * (a share lock on the client's access row serialises them with revocation, not with each other).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { createOrgWithAdmin } from '../helpers/build-app.ts'
import { closeHarness, confidentialClient, createHarness, obtainCode, redeem, resetHarness, type OAuthHarness } from './helpers.ts'

describe.each(await targets())('concurrent code exchanges on %s', (target) => {
  let h: OAuthHarness
  beforeAll(async () => {
    h = await createHarness(target)
  })
  afterAll(() => closeHarness(h))
  beforeEach(() => resetHarness(h))

  it('redeems eight codes of one client at the same time, all successfully', async () => {
    const admin = await createOrgWithAdmin(h.app)
    const client = await confidentialClient(h.app, admin.orgId)
    const codes = []
    for (let i = 0; i < 8; i++) codes.push(await obtainCode(admin, client))
    const results = await Promise.all(codes.map((c) => redeem(h.app, client, c)))
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200))
  })
})
