/**
 * The replica section of bench:records (docs/benchmarks.md, Read replicas): a primary and a streaming
 * standby started for the run (test/helpers/replica-cluster.ts, temporary folders, free ports), one
 * organization of BENCH_REPLICA_ACCOUNTS accounts, and two service processes on it: one with
 * DATABASE_READ_URLS naming the standby, one on the primary alone. `GET /api/v1/accounts?limit=50`
 * with a session cookie loads each in turn, alternating within every round, so that a drift in the
 * machine's load falls on both. On a two-core machine all three servers and the load generator
 * share the same cores: the ratio shows what the routing costs (the read-your-writes lookup on the
 * primary, then the page on the replica), not the gain of a replica on a machine of its own.
 *
 * Then the read-your-writes check alone, in this process: the lookup of a credential's last write
 * position (one primary round trip a routed request) and the recording of it after a write.
 */
import { sql } from 'kysely'
import { openPostgres } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { createOrganizationWithAdmin } from '../src/orgs/org.service.ts'
import { createSession, SESSION_COOKIE } from '../src/orgs/session.service.ts'
import { startReplicaCluster, waitFor } from '../test/helpers/replica-cluster.ts'
import { cpuSeconds, fmt, loadAutocannon, loadWrk, median, startServiceProcess, wrkAvailable } from './lib.ts'

export async function replicaSection(seconds: number, rounds: number): Promise<void> {
  const accounts = Number(process.env.BENCH_REPLICA_ACCOUNTS ?? 20_000)
  const cluster = await startReplicaCluster()
  const primaryUrl = cluster.primary.url(cluster.database)
  const standbyUrl = cluster.standby.url(cluster.database)
  try {
    const database = await openPostgres(primaryUrl, { readUrls: [standbyUrl], replicas: { maxLagSeconds: 10, checkIntervalMs: 1000 } })
    await migrateToLatest(database)
    const { orgId, userId } = await createOrganizationWithAdmin(database.db, { name: 'Replica bench', adminEmail: 'bench@example.test', adminPassword: 'correct horse battery', adminName: 'Bench' })
    await sql`INSERT INTO accounts (org_id, id, created_at, updated_at, name) SELECT ${orgId}::uuid, gen_random_uuid(), now(), now(), 'Account ' || i FROM generate_series(1, ${accounts}::int) AS i`.execute(database.db)
    await sql`ANALYZE accounts`.execute(database.db)
    const session = await createSession(database.db, userId, orgId, 3600)
    const [{ lsn }] = await cluster.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn', cluster.database)
    await waitFor('the standby to replay the seed', async () => (await cluster.standby.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok, 60_000)

    console.log(`\nRead replicas (one primary and one streaming standby on this machine; ${fmt(accounts)} accounts; ${rounds} rounds of ${seconds} s, 32 connections, session cookie, GET /api/v1/accounts?limit=50)`)
    const services = {
      replica: await startServiceProcess({ DATABASE_URL: primaryUrl, DATABASE_READ_URLS: standbyUrl, PUBLIC_URL: 'http://127.0.0.1:3711' }, 3711),
      primary: await startServiceProcess({ DATABASE_URL: primaryUrl, PUBLIC_URL: 'http://127.0.0.1:3712' }, 3712),
    }
    const run = (url: string, s: number) => {
      const headers = { cookie: `${SESSION_COOKIE}=${session}` }
      return wrkAvailable() ? loadWrk(url, headers, s) : loadAutocannon(url, headers, s)
    }
    const page = (name: keyof typeof services) => `${services[name].url}/api/v1/accounts?limit=50`
    for (const name of ['replica', 'primary'] as const) run(page(name), 2)
    const commits = async (node: typeof cluster.primary) => Number((await node.query<{ n: string }>(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = '${cluster.database}'`))[0].n)
    const rps = { replica: [] as number[], primary: [] as number[] }
    for (let i = 0; i < rounds; i++) {
      const line: string[] = []
      for (const name of i % 2 === 0 ? (['replica', 'primary'] as const) : (['primary', 'replica'] as const)) {
        const before = { cpu: cpuSeconds(services[name].child.pid!), primary: await commits(cluster.primary), standby: await commits(cluster.standby) }
        const r = run(page(name), seconds)
        await new Promise((resolve) => setTimeout(resolve, 1100)) // statistics flush within a second
        const onPrimary = (await commits(cluster.primary)) - before.primary
        const onStandby = (await commits(cluster.standby)) - before.standby
        rps[name].push(r.rps)
        line.push(`${name === 'replica' ? 'reads on the replica' : 'primary alone'} ${fmt(r.rps)} req/s (p99 ${fmt(r.p99, 1)} ms, service CPU ${fmt(((cpuSeconds(services[name].child.pid!) - before.cpu) / r.requests) * 1e6)} µs/request, transactions/request primary ${fmt(onPrimary / r.requests, 2)} standby ${fmt(onStandby / r.requests, 2)}, errors ${r.non2xx})`)
      }
      console.log(`  round ${i + 1}: ${line.join('   ')}`)
    }
    for (const service of Object.values(services)) await service.stop()
    console.log(`  replica / primary alone (median of rounds): ${fmt(median(rps.replica) / median(rps.primary), 2)}; on two shared cores this is the routing's cost, not a replica's gain`)

    // The read-your-writes check alone: what a routed request adds on the primary, and what a write adds.
    const replicas = database.replicas!
    const n = 2000
    const credential = `s:bench-${Date.now()}`
    let started = performance.now()
    for (let i = 0; i < n; i++) await replicas.recordWrite(credential)
    const recordMs = (performance.now() - started) / n
    started = performance.now()
    for (let i = 0; i < n; i++) await replicas.requiredFor({ credential: () => credential, safe: true, wrote: false })
    const lookupMs = (performance.now() - started) / n
    console.log(`  read-your-writes check: ${fmt(lookupMs * 1000)} µs a routed read (the position lookup on the primary, one round trip), ${fmt(recordMs * 1000)} µs a write (recording the position), sequential, ${fmt(n)} each`)
    await database.close()
  } finally {
    await cluster.close()
  }
}
