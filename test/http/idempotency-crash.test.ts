/**
 * Idempotency across a crash: the service (a child process) is killed with SIGKILL after a keyed
 * write committed and before its answer was kept (the TEST_FAULTS failure point). The client's retry
 * with the same key, once the dead claim's lease lapsed, must get the first attempt's outcome
 * (marked Idempotent-Replayed) and write nothing again: no second record, no second event.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { freePort } from '../helpers/live-service.ts'
import { prepareServiceDatabase, type ServiceDatabase } from '../helpers/service-database.ts'
import { spawnService, type ChildService } from '../helpers/service-process.ts'

const LEASE_SECONDS = 2

describe.each(await targets())('keyed writes across a crash on %s', (target) => {
  let prepared: ServiceDatabase
  let service: ChildService | null = null
  let base = ''
  afterAll(async () => {
    await service?.kill()
    await prepared?.drop()
  })

  async function start(faults: string) {
    await service?.kill()
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    service = await spawnService({ ...prepared.env, PORT: String(port), PUBLIC_URL: base, IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS), TEST_FAULTS: faults })
  }

  const send = (method: string, path: string, key: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { ...prepared.headers, 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) })

  /** Sends the request to a service that dies before answering it: the connection fails, the process is gone. */
  async function crashOn(method: string, path: string, key: string, body?: unknown) {
    await start('crash-before-answer')
    const exited = new Promise((r) => service!.child.once('exit', r))
    await expect(send(method, path, key, body)).rejects.toThrow()
    await exited
    expect(service!.child.signalCode).toBe('SIGKILL')
  }

  /** The retry after a restart, once the dead request's lease lapsed: the first outcome, replayed. */
  async function retry(method: string, path: string, key: string, body?: unknown) {
    await start('')
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 200))
    const res = await send(method, path, key, body)
    expect(res.headers.get('idempotent-replayed')).toBe('true')
    return res
  }

  const count = async (path: string) => (await (await fetch(`${base}/api/v1/${path}/count`, { headers: prepared.headers })).json()).count as number

  /** Events of the journal once the sequencer numbered them all (it runs after the restart too). */
  async function eventTypes(): Promise<string[]> {
    let previous = -1
    for (;;) {
      const page = await (await fetch(`${base}/api/v1/events?limit=1000`, { headers: prepared.headers })).json()
      if (page.data.length === previous) return page.data.map((e: { type: string }) => e.type)
      previous = page.data.length
      await new Promise((r) => setTimeout(r, 500))
    }
  }

  it('replays a batch, a create, a change and a webhook whose answers the crash lost, and writes each once', async () => {
    prepared = await prepareServiceDatabase(target)
    const records = Array.from({ length: 300 }, (_, i) => ({ name: `Crash ${i}`, src_id: `crash-${i}` }))

    await crashOn('POST', '/api/v1/accounts/batch', 'batch-1', { operation: 'create', records })
    const batch = await retry('POST', '/api/v1/accounts/batch', 'batch-1', { operation: 'create', records })
    expect(batch.status).toBe(200)
    const batchBody = await batch.text()
    expect(JSON.parse(batchBody).data.map((r: { src_id: string }) => r.src_id)).toEqual(records.map((r) => r.src_id))
    expect(await count('accounts')).toBe(300)
    // Once answered, the answer is kept: a further retry gets the very same body.
    expect(await (await send('POST', '/api/v1/accounts/batch', 'batch-1', { operation: 'create', records })).text()).toBe(batchBody)

    await crashOn('POST', '/api/v1/contacts', 'one-1', { last_name: 'Lovelace' })
    const created = await retry('POST', '/api/v1/contacts', 'one-1', { last_name: 'Lovelace' })
    expect(created.status).toBe(201)
    const contact = await created.json()
    expect(created.headers.get('location')).toBe(`/api/v1/contacts/${contact.id}`)
    expect(await count('contacts')).toBe(1)

    await crashOn('PATCH', `/api/v1/contacts/${contact.id}`, 'patch-1', { first_name: 'Ada' })
    const changed = await retry('PATCH', `/api/v1/contacts/${contact.id}`, 'patch-1', { first_name: 'Ada' })
    expect(changed.status).toBe(200)
    expect((await changed.json()).first_name).toBe('Ada')

    await crashOn('POST', '/api/v1/webhooks', 'hook-1', { url: 'https://93.184.215.14/hook', events: ['account.created'], generate_secret: true })
    const hook = await retry('POST', '/api/v1/webhooks', 'hook-1', { url: 'https://93.184.215.14/hook', events: ['account.created'], generate_secret: true })
    expect(hook.status).toBe(201)
    expect((await hook.json()).secret).toMatch(/^whsec_/)
    const hooks = await (await fetch(`${base}/api/v1/webhooks`, { headers: prepared.headers })).json()
    expect(hooks.data).toHaveLength(1)

    const types = await eventTypes()
    expect(types.filter((t) => t === 'account.created')).toHaveLength(300)
    expect(types.filter((t) => t === 'contact.created')).toHaveLength(1)
    expect(types.filter((t) => t === 'contact.updated')).toHaveLength(1)
  }, 300_000)
})
