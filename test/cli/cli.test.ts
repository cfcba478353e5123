import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../src/cli/main.ts'
import { TABLE_ROLES } from '../../src/db/table-roles.ts'
import { createPostgresDatabase, targets } from '../helpers/databases.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

describe.each(await targets())('operator CLI on %s', (target) => {
  let env: NodeJS.ProcessEnv
  let cleanup: () => Promise<void>

  beforeAll(async () => {
    if (target === 'postgres') {
      const db = await createPostgresDatabase()
      env = { DATABASE_URL: db.url }
      cleanup = db.drop
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-'))
      env = { DATA_DIR: dir }
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true })
    }
  })
  afterAll(() => cleanup?.())

  it('creates an organization and users, printing JSON', async () => {
    const migrate = await runCli(['db', 'migrate'], env)
    expect(migrate.code).toBe(0)
    const org = await runCli(['org', 'create', '--name', 'Acme', '--admin-email', 'ann@acme.test', '--admin-password', 'password123'], env)
    expect(org.code, org.stderr).toBe(0)
    const created = JSON.parse(org.stdout)
    expect(created).toEqual({ org_id: expect.any(String), user_id: expect.any(String) })
    const user = await runCli(['user', 'create', '--org', created.org_id, '--email', 'bob@acme.test', '--password', 'password123', '--role', 'member'], env)
    expect(user.code, user.stderr).toBe(0)
    expect(JSON.parse(user.stdout)).toEqual({ user_id: expect.any(String) })
    const again = await runCli(['user', 'create', '--org', created.org_id, '--email', 'BOB@acme.test', '--password', 'password123'], env)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already a member')
  })

  it('db distribute without Citus changes nothing, says so and lists what it would run', async () => {
    const r = await runCli(['db', 'distribute'], env)
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.citus).toBe(false)
    expect(out.message).toContain('citus extension is not installed')
    for (const { table, role } of TABLE_ROLES) {
      const named = out.statements.filter((s: string) => s.includes(`('${table}'`))
      if (role === 'local') expect(named, table).toEqual([])
      else expect(named, table).toEqual([role === 'reference' ? `SELECT create_reference_table('${table}')` : expect.stringMatching(new RegExp(`^SELECT create_distributed_table\\('${table}', 'org_id', colocate_with => '`))])
    }
    expect(out.local).toEqual(TABLE_ROLES.filter((t) => t.role === 'local').map((t) => t.table))
  })

  it('explains bad arguments with a non-zero exit', async () => {
    const cases: [string[], number, string][] = [
      [[], 2, 'Usage'],
      [['org', 'fly'], 2, 'Unknown command'],
      [['org', 'create', '--name', 'X'], 2, '--admin-email is required'],
      [['org', 'create', '--nme', 'X'], 2, 'Unknown option'],
      [['user', 'create', '--org', 'nope', '--email', 'a@b.test', '--password', 'password123'], 2, 'must be an organization id'],
      [['user', 'create', '--org', '0190d6f0-0000-7000-8000-000000000000', '--email', 'a@b.test', '--password', 'password123'], 1, 'Organization not found'],
      [['user', 'create', '--org', '0190d6f0-0000-7000-8000-000000000000', '--email', 'a@b.test', '--password', 'short'], 1, 'password must be'],
      [['user', 'create', '--org', '0190d6f0-0000-7000-8000-000000000000', '--email', 'a@b.test', '--password', 'password123', '--role', 'god'], 2, '--role must be admin or member'],
    ]
    for (const [args, code, message] of cases) {
      const r = await runCli(args, env)
      expect(r.code, args.join(' ')).toBe(code)
      expect(r.stderr, args.join(' ')).toContain(message)
      expect(r.stdout).toBe('')
    }
  })
})

describe('the cairn bin', () => {
  it('runs the CLI as a process with exit codes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bin-'))
    try {
      const ok = spawnSync(process.execPath, [path.join(ROOT, 'bin/cairn.js'), 'org', 'create', '--name', 'Bin', '--admin-email', 'a@bin.test', '--admin-password', 'password123'], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        encoding: 'utf8',
      })
      expect(ok.status, ok.stderr).toBe(0)
      expect(JSON.parse(ok.stdout).org_id).toBeTruthy()
      const bad = spawnSync(process.execPath, [path.join(ROOT, 'bin/cairn.js'), 'nope'], { env: { ...process.env, DATA_DIR: dir }, encoding: 'utf8' })
      expect(bad.status).toBe(2)
      expect(bad.stderr).toContain('Unknown command')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe.each(await targets())('CLI client create on %s', (target) => {
  it('creates an OAuth client and refuses bad redirect URIs and scopes', async () => {
    let env: NodeJS.ProcessEnv
    let cleanup: () => Promise<void>
    if (target === 'postgres') {
      const db = await createPostgresDatabase()
      env = { DATABASE_URL: db.url }
      cleanup = db.drop
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-client-'))
      env = { DATA_DIR: dir }
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true })
    }
    try {
      const org = JSON.parse((await runCli(['org', 'create', '--name', 'Clients', '--admin-email', 'c@c.test', '--admin-password', 'password123'], env)).stdout)
      const ok = await runCli(['client', 'create', '--org', org.org_id, '--name', 'Nightly sync', '--redirect-uri', 'https://sync.example.test/cb', '--redirect-uri', 'http://127.0.0.1/cb', '--scopes', 'crm:read crm:write'], env)
      expect(ok.code, ok.stderr).toBe(0)
      const created = JSON.parse(ok.stdout)
      expect(created.client_id).toMatch(/^crm_/)
      expect(created.client_secret).toMatch(/^crm_cs_[A-Za-z0-9_-]{43}$/)
      const badUri = await runCli(['client', 'create', '--org', org.org_id, '--name', 'X', '--redirect-uri', 'http://evil.test/cb', '--scopes', 'crm:read'], env)
      expect(badUri.code).toBe(1)
      expect(badUri.stderr).toContain('redirect_uris.0 must use https')
      const badScope = await runCli(['client', 'create', '--org', org.org_id, '--name', 'X', '--redirect-uri', 'https://x.test/cb', '--scopes', 'crm:admin'], env)
      expect(badScope.code).toBe(1)
      expect(badScope.stderr).toContain('crm:admin is not one of')
      const noUri = await runCli(['client', 'create', '--org', org.org_id, '--name', 'X', '--scopes', 'crm:read'], env)
      expect(noUri.code).toBe(2)
    } finally {
      await cleanup()
    }
  })
})
