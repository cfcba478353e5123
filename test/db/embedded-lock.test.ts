/**
 * The embedded database refuses a second process on its folder (PGlite would silently lose writes),
 * survives a restart with its data, and takes over a lock left by a killed process.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../helpers/live-service.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

function startServer(dir: string, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'src/server.ts')], {
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000)
    child.stdout!.on('data', () => {
      if (out.includes('is ready')) {
        clearTimeout(timer)
        resolve({ child, output: () => out })
      }
    })
    child.on('exit', () => {
      clearTimeout(timer)
      reject(new Error(`server exited: ${out}`))
    })
  })
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children) c.kill('SIGKILL')
  children.length = 0
})

describe('embedded database folder lock', () => {
  it('refuses a second process, keeps data across restarts, recovers from SIGKILL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lock-'))
    const port = await freePort()
    const first = await startServer(dir, port)
    children.push(first.child)
    const second = spawnSync(process.execPath, [path.join(ROOT, 'src/server.ts')], {
      env: { ...process.env, DATA_DIR: dir, PORT: String(port + 1), DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(second.status).toBe(3)
    expect(second.stderr).toContain('already in use by another Cairn process')

    const setup = await fetch(`http://127.0.0.1:${port}/setup`, {
      method: 'POST',
      body: new URLSearchParams({ org_name: 'Kept', name: 'K', email: 'k@kept.test', password: 'password123' }),
      redirect: 'manual',
    })
    expect(setup.status).toBe(303)

    // SIGKILL leaves the lock file behind; the next start sees its pid is gone and takes over.
    first.child.kill('SIGKILL')
    await new Promise((r) => first.child.once('exit', r))
    expect(fs.existsSync(path.join(dir, 'cairn.lock'))).toBe(true)
    const again = await startServer(dir, port + 2)
    children.push(again.child)
    const res = await fetch(`http://127.0.0.1:${port + 2}/setup`, { redirect: 'manual' })
    expect(res.headers.get('location')).toBe('/sign-in') // the organization survived

    // A clean shutdown closes the database and removes the lock, and the process exits by itself.
    again.child.kill('SIGTERM')
    const code = await new Promise((r) => again.child.once('exit', r))
    expect(code).toBe(0)
    expect(fs.existsSync(path.join(dir, 'cairn.lock'))).toBe(false)
    fs.rmSync(dir, { recursive: true, force: true })
  }, 120_000)
})
