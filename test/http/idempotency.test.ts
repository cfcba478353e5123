/**
 * Idempotent retries under /api/v1 (docs/api.md, Idempotent retries): a repeat replays the kept
 * answer and writes nothing, a reused key is a 422, racing requests with one key write once (also
 * from two service processes on one PostgreSQL), keys belong to an organization and caller, expire
 * after 24 hours through housekeeping, and a request that failed or died leaves its key reusable.
 */
import crypto from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { targets } from '../helpers/databases.ts'
import { addMember, appPerFile, buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { createVia } from '../helpers/samples.ts'
import { ManualClock } from '../../src/shared/clock.ts'
import { openPostgres } from '../../src/db/connect.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { fingerprint } from '../../src/http/idempotency/idempotency-key.ts'

describe.each(await targets())('Idempotency-Key on %s', (target) => {
  const clock = new ManualClock()
  const ctx = appPerFile(target, {}, clock)
  let admin: Member

  const post = (key: string | undefined, payload: unknown, url = '/api/v1/accounts', m: Member = admin) =>
    m.request({ method: 'POST', url, payload: payload as object, headers: key === undefined ? {} : { 'idempotency-key': key } })
  const count = async (table: string, orgId = admin.orgId) => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE org_id = ${orgId}`.execute(ctx.app.db)).rows[0].n)
  const keys = async () => (await sql<{ key: string; response_status: number | null }>`SELECT key, response_status FROM idempotency_keys ORDER BY key`.execute(ctx.app.db)).rows

  /** No key is kept, and a request with `key` runs afresh: no replay, the organization then has `accounts` accounts. */
  async function expectFreeKey(key: string, payload: object, accounts: number) {
    expect(await keys()).toHaveLength(0)
    const res = await post(key, payload)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.headers['idempotent-replayed']).toBeUndefined()
    expect(await count('accounts')).toBe(accounts)
  }

  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  it('replays the first answer with Idempotent-Replayed: true and writes no second record or event', async () => {
    const hook = await admin.request({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['account.created'] } })
    expect(hook.statusCode, hook.body).toBe(201)
    const first = await post('key-1', { name: 'Globex', website: 'https://globex.example' })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    const again = await post('key-1', { website: 'https://globex.example', name: 'Globex' }) // same JSON, other member order
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toBe(first.body)
    expect(again.headers['content-type']).toBe(first.headers['content-type'])
    expect(again.headers.location).toBe(first.headers.location)
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id'])
    expect(await count('accounts')).toBe(1)
    expect(await count('webhook_deliveries')).toBe(1)
    // Without a key every request runs.
    expect((await post(undefined, { name: 'Globex' })).statusCode).toBe(201)
    expect(await count('accounts')).toBe(2)
  })

  it('refuses a key reused with another body, path or method: 422 idempotency_key_reused, nothing written', async () => {
    expect((await post('key-2', { name: 'A' })).statusCode).toBe(201)
    for (const res of [
      await post('key-2', { name: 'B' }),
      await post('key-2', { last_name: 'A' }, '/api/v1/contacts'),
      await post('key-2', { name: 'A' }, '/api/v1/accounts?x=1'),
    ]) {
      expect(res.statusCode, res.body).toBe(422)
      expect(res.headers['content-type']).toContain('application/problem+json')
      expect(json(res).code).toBe('idempotency_key_reused')
    }
    expect(await count('accounts')).toBe(1)
    expect(await count('contacts')).toBe(0)
  })

  it('lets racing requests with one key write once: the others get 409 idempotency_key_in_use or the replay', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('race', { name: 'Raced' })))
    const created = answers.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined)
    expect(created).toHaveLength(1)
    for (const res of answers) {
      if (res.statusCode === 409) {
        expect(json(res).code).toBe('idempotency_key_in_use')
        expect(res.headers['retry-after']).toBe('1')
      } else {
        expect(res.statusCode).toBe(201)
        expect(res.body).toBe(created[0].body)
      }
    }
    expect(await count('accounts')).toBe(1)
    // Once the first has answered, a retry gets its answer.
    const later = await post('race', { name: 'Raced' })
    expect(later.headers['idempotent-replayed']).toBe('true')
    expect(later.body).toBe(created[0].body)
  })

  it.runIf(target === 'postgres')('lets two service processes racing with one key write once', async () => {
    // A second app on the same PostgreSQL database: another process as far as keys are concerned.
    const second = await openPostgres(ctx.tdb.url!)
    const other: FastifyInstance = await buildTestApp(second, {}, clock)
    try {
      const via = (app: FastifyInstance) =>
        app.inject({ method: 'PUT', url: '/api/v1/accounts/by-src-id/S-1', payload: { name: 'From source' }, cookies: { [SESSION_COOKIE]: admin.session }, headers: { 'x-csrf-token': admin.csrf, 'idempotency-key': 'two-processes' } })
      const answers: LightMyRequestResponse[] = await Promise.all([via(ctx.app), via(other), via(ctx.app), via(other)])
      expect(answers.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
      for (const res of answers) expect([201, 409]).toContain(res.statusCode)
      expect(await count('accounts')).toBe(1)
    } finally {
      await other.close()
      await second.close()
    }
  })

  it('scopes keys to the organization and the caller', async () => {
    const orgB = await createOrgWithAdmin(ctx.app, 'B')
    const colleague = await addMember(ctx.app, admin.orgId, 'admin')
    expect((await post('shared', { name: 'A' })).statusCode).toBe(201)
    const inB = await post('shared', { name: 'B' }, '/api/v1/accounts', orgB)
    expect(inB.statusCode, inB.body).toBe(201)
    expect(inB.headers['idempotent-replayed']).toBeUndefined()
    const byColleague = await post('shared', { name: 'A' }, '/api/v1/accounts', colleague)
    expect(byColleague.statusCode).toBe(201)
    expect(byColleague.headers['idempotent-replayed']).toBeUndefined()
    // Each caller's own retry is still a replay.
    expect((await post('shared', { name: 'A' })).headers['idempotent-replayed']).toBe('true')
    expect((await post('shared', { name: 'B' }, '/api/v1/accounts', orgB)).headers['idempotent-replayed']).toBe('true')
    expect(await count('accounts')).toBe(2)
    expect(await count('accounts', orgB.orgId)).toBe(1)
  })

  it('keeps a key 24 hours; housekeeping then deletes it and the key is new again', async () => {
    expect((await post('daily', { name: 'Day 1' })).statusCode).toBe(201)
    clock.advance(24 * 3600 - 60)
    await ctx.app.runHousekeeping()
    expect(await keys()).toHaveLength(1)
    expect((await post('daily', { name: 'Day 2' })).statusCode).toBe(422)
    clock.advance(61)
    await ctx.app.runHousekeeping()
    await expectFreeKey('daily', { name: 'Day 2' }, 2)
  })

  it('refuses malformed keys with 400 invalid_idempotency_key, and GET ignores the header', async () => {
    for (const key of ['', 'a'.repeat(256), 'with space', 'tab\there', 'caf\u00e9']) {
      const res = await post(key, { name: 'Never' })
      expect(res.statusCode, JSON.stringify(key)).toBe(400)
      expect(json(res).code).toBe('invalid_idempotency_key')
    }
    expect(await count('accounts')).toBe(0)
    expect((await post('k'.repeat(255), { name: 'Longest key' })).statusCode).toBe(201)
    // The IETF draft's form, an RFC 8941 String, works as a key with its quotes.
    expect((await post('"8e03978e-40d5-43e8-bc93-6894a57f9324"', { name: 'Quoted' })).statusCode).toBe(201)
    const read = await admin.request({ method: 'GET', url: '/api/v1/accounts', headers: { 'idempotency-key': 'with space' } })
    expect(read.statusCode).toBe(200)
    expect(read.headers['idempotent-replayed']).toBeUndefined()
    expect(await keys()).toHaveLength(2)
  })

  it('lets browsers of other origins send the key and read the replay header (CORS)', async () => {
    const preflight = await ctx.app.inject({ method: 'OPTIONS', url: '/api/v1/accounts', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'idempotency-key' } })
    expect(preflight.statusCode).toBe(204)
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('idempotency-key')
    const res = await post('cors', { name: 'A' }, '/api/v1/accounts', { ...admin, request: (o) => admin.request({ ...o, headers: { ...o.headers, origin: 'https://app.example' } }) })
    expect(String(res.headers['access-control-expose-headers'])).toContain('idempotent-replayed')
  })

  it('covers every kind of write: batch, upsert by src_id, special actions, deletes, webhooks', async () => {
    const kase = await createVia(admin, 'case')
    const account = await createVia(admin, 'account')
    const writes = [
      { method: 'POST', url: '/api/v1/contacts/batch', payload: { operation: 'create', records: [{ last_name: 'One' }, { last_name: 'Two' }] } },
      { method: 'PUT', url: '/api/v1/products/by-src-id/P-1', payload: { name: 'Widget' } },
      { method: 'POST', url: `/api/v1/cases/${kase.id}/escalate`, payload: {} },
      { method: 'PATCH', url: `/api/v1/accounts/${account.id}`, payload: { name: 'Renamed' } },
      { method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://93.184.215.14/hook', events: ['contact.created'] } },
      { method: 'DELETE', url: `/api/v1/accounts/${account.id}` },
    ] as const
    for (const [i, write] of writes.entries()) {
      const first = await admin.request({ ...write, headers: { 'idempotency-key': `write-${i}` } })
      expect(first.statusCode, `${write.method} ${write.url}: ${first.body}`).toBeLessThan(300)
      const again = await admin.request({ ...write, headers: { 'idempotency-key': `write-${i}` } })
      expect(again.headers['idempotent-replayed'], `${write.method} ${write.url}`).toBe('true')
      expect([again.statusCode, again.body]).toEqual([first.statusCode, first.body])
    }
    expect(await count('contacts')).toBe(2)
    expect(await count('products')).toBe(1)
    expect(await count('webhooks')).toBe(1)
  })

  it('keeps a final 4xx from the handler, but not a refusal before it ran or a 409 conflict', async () => {
    const dangling = await post('bad-ref', { last_name: 'X', account_id: '01900000-0000-7000-8000-000000000000' }, '/api/v1/contacts')
    expect(dangling.statusCode).toBe(400)
    const replayed = await post('bad-ref', { last_name: 'X', account_id: '01900000-0000-7000-8000-000000000000' }, '/api/v1/contacts')
    expect([replayed.statusCode, replayed.headers['idempotent-replayed'], replayed.body]).toEqual([400, 'true', dangling.body])
    // Schema validation refuses before the key is claimed: nothing kept.
    expect((await post('schema', { nmae: 'typo' })).statusCode).toBe(400)
    // A duplicate src_id is a 409 that writes nothing: the key stays free for the retry.
    const existing = await createVia(admin, 'account', { src_id: 'S-9' })
    expect((await post('dup', { name: 'Dup', src_id: 'S-9' })).statusCode).toBe(409)
    expect((await keys()).map((k) => k.key)).toEqual(['bad-ref'])
    await admin.request({ method: 'DELETE', url: `/api/v1/accounts/${existing.id}` })
    expect((await post('dup', { name: 'Dup', src_id: 'S-9' })).statusCode).toBe(201)
  })

  it('frees the key after a 5xx, so the retry runs', async () => {
    // A real fault inside the write's transaction: the insert itself fails.
    await sql.raw(`CREATE FUNCTION idempotency_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$`).execute(ctx.app.db)
    await sql.raw('CREATE TRIGGER idempotency_test_fail BEFORE INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION idempotency_test_fail()').execute(ctx.app.db)
    try {
      expect((await post('after-crash', { name: 'Retried' })).statusCode).toBe(500)
    } finally {
      await sql.raw('DROP TRIGGER idempotency_test_fail ON accounts').execute(ctx.app.db)
      await sql.raw('DROP FUNCTION idempotency_test_fail()').execute(ctx.app.db)
    }
    await expectFreeKey('after-crash', { name: 'Retried' }, 1)
  })

  it('answers 409 while a claim is held, and frees the key of a process that died once its lease lapses', async () => {
    // What a process that died mid-request leaves behind: a claim with a 60 s lease and no answer.
    const now = clock.now()
    await sql`INSERT INTO idempotency_keys (org_id, principal, key, fingerprint, claim_id, locked_until, created_at, expires_at)
      VALUES (${admin.orgId}, ${`user:${admin.userId}`}, 'orphan', ${fingerprint('POST', '/api/v1/accounts', { name: 'Again' })}, ${crypto.randomUUID()},
        ${new Date(now.getTime() + 60_000)}, ${now}, ${new Date(now.getTime() + 86_400_000)})`.execute(ctx.app.db)
    for (const wait of [0, 30]) {
      clock.advance(wait)
      const busy = await post('orphan', { name: 'Again' })
      expect(busy.statusCode, busy.body).toBe(409)
      expect(json(busy).code).toBe('idempotency_key_in_use')
    }
    expect(await count('accounts')).toBe(0)
    clock.advance(31)
    const taken = await post('orphan', { name: 'Again' })
    expect(taken.statusCode, taken.body).toBe(201)
    expect(taken.headers['idempotent-replayed']).toBeUndefined()
    expect((await post('orphan', { name: 'Again' })).headers['idempotent-replayed']).toBe('true')
    expect(await count('accounts')).toBe(1)
  })
})
