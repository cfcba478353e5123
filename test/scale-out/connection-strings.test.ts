/**
 * The parts of scale-out that need no cluster: libpq multi-host connection strings split per host
 * (src/db/host-list.ts), WAL positions compared as numbers (src/db/wal-position.ts), which errors
 * mean a lost server (src/db/database-unavailable.ts), and the replica settings (src/config.ts).
 */
import { describe, expect, it } from 'vitest'
import { hostUrls } from '../../src/db/host-list.ts'
import { walPosition } from '../../src/db/wal-position.ts'
import { DatabaseUnavailable, isServerLost } from '../../src/db/database-unavailable.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'

describe('multi-host connection strings', () => {
  it('splits libpq hosts into one URL each, keeping user, database and options, dropping target_session_attrs', () => {
    expect(hostUrls('postgres://cairn:pw@db1:5432,db2:5433/crm?target_session_attrs=read-write&application_name=cairn')).toEqual([
      'postgres://cairn:pw@db1:5432/crm?application_name=cairn',
      'postgres://cairn:pw@db2:5433/crm?application_name=cairn',
    ])
  })
  it('leaves a single host as it was', () => {
    expect(hostUrls('postgres://postgres@127.0.0.1:5432/test')).toEqual(['postgres://postgres@127.0.0.1:5432/test'])
  })
})

describe('WAL positions', () => {
  it('compares across the high word, and reads no position as 0', () => {
    expect(walPosition('1/0') > walPosition('0/FFFFFFFF')).toBe(true)
    expect(walPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n)
    expect(walPosition(null)).toBe(0n)
  })
})

describe('a lost server', () => {
  it('is a shutdown, a standby refusing writes, a connection error; not a statement error', () => {
    for (const code of ['57P01', '57P02', '57P03', '25006', '08006', 'ECONNREFUSED']) expect(isServerLost({ code, message: 'x' })).toBe(true)
    expect(isServerLost(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isServerLost(new DatabaseUnavailable('gone'))).toBe(true)
    for (const code of ['23505', '40001', '22021']) expect(isServerLost({ code, message: 'x' })).toBe(false)
  })
})

describe('replica settings', () => {
  it('reads DATABASE_READ_URLS as a list, with the lag bound and check interval', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_READ_URLS: 'postgres://r1/db, postgres://r2/db', READ_REPLICA_MAX_LAG_SECONDS: '5', READ_REPLICA_CHECK_INTERVAL_MS: '250' })
    expect(config.databaseReadUrls).toEqual(['postgres://r1/db', 'postgres://r2/db'])
    expect(config.readReplicaMaxLagSeconds).toBe(5)
    expect(config.readReplicaCheckIntervalMs).toBe(250)
  })
  it('has no replicas by default, and refuses them without DATABASE_URL or in another form', () => {
    expect(loadConfig({}).databaseReadUrls).toEqual([])
    expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://r1/db' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p/db', DATABASE_READ_URLS: 'mysql://r1/db' })).toThrow(ConfigError)
  })
})
