/**
 * A real primary and streaming standby for the replica and failover tests, started by the test in
 * temporary folders on free ports (the machine's own PostgreSQL is never touched): `initdb`, then
 * `pg_basebackup -R` for the standby, each its own postmaster. PostgreSQL refuses to run as root,
 * so as root the binaries run as the `postgres` user. Without the binaries the tests fail with CI=true
 * and are skipped (said loudly) elsewhere.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

/** Whether the tests can start clusters here; with CI=true a missing binary is an error, not a skip. */
export function clustersAvailable(): boolean {
  const present = fs.existsSync(path.join(PG_BIN, 'pg_ctl')) && fs.existsSync(path.join(PG_BIN, 'pg_basebackup'))
  if (!present && process.env.CI === 'true') throw new Error(`CI=true and the PostgreSQL binaries are missing from ${PG_BIN} (set PG_BIN)`)
  if (!present) console.warn(`PostgreSQL binaries not found in ${PG_BIN}: replica and failover tests skipped (set PG_BIN)`)
  return present
}

const asRoot = process.getuid?.() === 0

/** Runs a PostgreSQL binary, as the postgres user when this process is root. */
async function pgBin(name: string, args: string[]): Promise<string> {
  const file = path.join(PG_BIN, name)
  const { stdout } = asRoot ? await run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: '/tmp' }) : await run(file, args, { cwd: '/tmp' })
  return stdout
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

export interface Node {
  dir: string
  port: number
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string
  start(): Promise<void>
  /** Fast shutdown: sessions are ended, committed WAL is sent to standbys first. */
  stop(): Promise<void>
  /** `pg_ctl promote`: the standby becomes a read-write primary. */
  promote(): Promise<void>
  /** A one-off statement on this node. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, database?: string): Promise<T[]>
}

function node(dir: string, port: number): Node {
  let running = false
  const self: Node = {
    dir,
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await pgBin('pg_ctl', ['-D', dir, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir}`, 'start'])
      running = true
    },
    async stop() {
      if (!running) return
      await pgBin('pg_ctl', ['-D', dir, '-m', 'fast', '-w', '-t', '60', 'stop'])
      running = false
    },
    async promote() {
      await pgBin('pg_ctl', ['-D', dir, '-w', '-t', '60', 'promote'])
    },
    async query(text, database = 'postgres') {
      const client = new pg.Client({ connectionString: self.url(database) })
      await client.connect()
      try {
        return (await client.query(text)).rows
      } finally {
        await client.end()
      }
    },
  }
  return self
}

export interface ReplicaCluster {
  primary: Node
  standby: Node
  /** The database the service uses, on both. */
  database: string
  close(): Promise<void>
}

/** Settings both nodes share: small, fast, replication on, no fsync (a test cluster, stopped cleanly). */
const COMMON_SETTINGS = `
listen_addresses = '127.0.0.1'
wal_level = replica
max_wal_senders = 5
hot_standby = on
hot_standby_feedback = on
fsync = off
full_page_writes = off
shared_buffers = 32MB
max_connections = 60
log_min_messages = warning
`

/**
 * A primary with the service's database, and a standby streaming from it. `standbySettings` goes to
 * the standby's configuration only (e.g. `recovery_min_apply_delay = '1500ms'`).
 */
export async function startReplicaCluster(options: { standbySettings?: string } = {}): Promise<ReplicaCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-replicas-'))
  fs.chmodSync(root, 0o755)
  const primaryDir = path.join(root, 'primary')
  const standbyDir = path.join(root, 'standby')
  if (asRoot) {
    await run('chown', ['postgres:postgres', root])
  }
  const [primaryPort, standbyPort] = [await freePort(), await freePort()]
  const primary = node(primaryDir, primaryPort)
  const standby = node(standbyDir, standbyPort)
  const close = async () => {
    await standby.stop().catch(() => {})
    await primary.stop().catch(() => {})
    fs.rmSync(root, { recursive: true, force: true })
  }
  try {
    await pgBin('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
    fs.appendFileSync(primaryDir + '/postgresql.conf', COMMON_SETTINGS)
    await primary.start()
    const database = 'cairn'
    await primary.query(`CREATE DATABASE ${database}`)
    await pgBin('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'])
    fs.appendFileSync(standbyDir + '/postgresql.conf', `\n${options.standbySettings ?? ''}\n`)
    await standby.start()
    return { primary, standby, database, close }
  } catch (err) {
    await close()
    throw err
  }
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
