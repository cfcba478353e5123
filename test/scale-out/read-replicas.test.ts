/**
 * Reads on a real streaming replica (DATABASE_READ_URLS, src/db/read-replicas.ts): a primary and a
 * standby started for this file, the standby holding back replay by 1.5 s
 * (`recovery_min_apply_delay`) so that a read served there too early reads stale data, which the
 * control case shows does happen. Then: a write followed at once by a read, by the same session or
 * token, never reads stale data; reads move to the replica under load; stopping the replica costs
 * no failed request, and it comes back into rotation once it runs again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { openPostgres, type Database } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { addMember, buildTestApp, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { api, confidentialClient, obtainTokens } from '../oauth/helpers.ts'
import { clustersAvailable, startReplicaCluster, waitFor, type ReplicaCluster } from '../helpers/replica-cluster.ts'

const APPLY_DELAY = "recovery_min_apply_delay = '1500ms'"

describe.skipIf(!clustersAvailable())('read replicas on a real standby', () => {
  let cluster: ReplicaCluster
  let database: Database
  let app: FastifyInstance
  let writer: Member
  let reader: Member
  let token: string

  /** Committed transactions of the service's database on `node` (pg_stat_database, flushed within a second). */
  const commits = async (node: ReplicaCluster['primary']) => Number((await node.query<{ n: string }>(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = 'cairn'`))[0].n)
  const ids = (res: LightMyRequestResponse) => (json(res).data as { id: string }[]).map((r) => r.id)
  const inRotation = () => database.replicas!.state()[0].inRotation

  beforeAll(async () => {
    cluster = await startReplicaCluster({ standbySettings: APPLY_DELAY })
    database = await openPostgres(cluster.primary.url(cluster.database), {
      readUrls: [cluster.standby.url(cluster.database)],
      replicas: { maxLagSeconds: 60, checkIntervalMs: 200 },
    })
    await migrateToLatest(database)
    app = await buildTestApp(database)
    writer = await createOrgWithAdmin(app)
    reader = await addMember(app, writer.orgId)
    token = (await obtainTokens(app, writer, await confidentialClient(app, writer.orgId), { scope: 'crm:read crm:write erp:read' })).access_token
    // The organization, its people and the token replayed on the standby, which is in rotation.
    const [{ lsn }] = await cluster.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn', cluster.database)
    await waitFor('the standby to replay the setup', async () => (await cluster.standby.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok && inRotation())
  }, 90_000)

  afterAll(async () => {
    await app?.close()
    await database?.close()
    await cluster?.close()
  })

  it('a write, then at once a read by the same session or token, reads the write; another caller reads the replica, still without it', async () => {
    let staleForOthers = 0
    for (let i = 0; i < 6; i++) {
      const created = await writer.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: `Session ${i}` } })
      expect(created.statusCode).toBe(201)
      const id = json(created).id as string
      const listed = await writer.request({ method: 'GET', url: '/api/v1/accounts?limit=200' })
      expect(listed.statusCode).toBe(200)
      expect(ids(listed)).toContain(id)
      const counted = await writer.request({ method: 'GET', url: '/api/v1/accounts/count' })
      expect(json(counted).count).toBeGreaterThanOrEqual(i + 1)
      // Control: a caller that wrote nothing is served by the replica, 1.5 s behind: without the
      // read-your-writes check the writer would read exactly this.
      if (!ids(await reader.request({ method: 'GET', url: '/api/v1/accounts?limit=200' })).includes(id)) staleForOthers++

      const viaToken = await api(app, token, { method: 'POST', url: '/api/v1/accounts', payload: { name: `Token ${i}` } })
      expect(viaToken.statusCode).toBe(201)
      const tokenList = await api(app, token, { url: '/api/v1/accounts?limit=200' })
      expect(tokenList.statusCode).toBe(200)
      expect(ids(tokenList)).toContain(json(viaToken).id)
    }
    expect(staleForOthers).toBeGreaterThanOrEqual(5)
  }, 60_000)

  it('moves reads to the replica under a read load', async () => {
    const before = await commits(cluster.standby)
    const requests = 160
    for (let i = 0; i < requests; i += 8) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => reader.request({ method: 'GET', url: '/api/v1/accounts?limit=50' })))
      for (const res of answers) expect(res.statusCode).toBe(200)
    }
    // Each list is one statement, one transaction on the standby (statistics flush within a second).
    await waitFor('the standby to count the lists', async () => (await commits(cluster.standby)) - before >= requests, 10_000)
  }, 60_000)

  it('a stopped replica costs no failed request, leaves the rotation, and comes back once it runs again', async () => {
    const statuses: number[] = []
    let stopped = false
    const load = (async () => {
      while (!stopped || statuses.length < 400) {
        const answers = await Promise.all(Array.from({ length: 4 }, () => reader.request({ method: 'GET', url: '/api/v1/accounts?limit=20' })))
        statuses.push(...answers.map((r) => r.statusCode))
        if (statuses.length > 2000) break
      }
    })()
    await new Promise((resolve) => setTimeout(resolve, 300))
    await cluster.standby.stop()
    stopped = true
    await load
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    expect(inRotation()).toBe(false)
    await cluster.standby.start()
    await waitFor('the standby back in rotation', inRotation, 20_000)
    const before = await commits(cluster.standby)
    for (let i = 0; i < 20; i++) expect((await reader.request({ method: 'GET', url: '/api/v1/accounts?limit=20' })).statusCode).toBe(200)
    await waitFor('reads on the standby again', async () => (await commits(cluster.standby)) - before >= 20, 10_000)
  }, 90_000)
})
