// The command line (what `npm run source-sim -- --port 4010 --dataset demo` runs): prints its URL
// when ready, answers GET /services/data/ from then on, stops cleanly, rejects unknown flags.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const MAIN = fileURLToPath(new URL('../../tools/source-sim/main.ts', import.meta.url))

function run(args: string[]) {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, exited, output: () => out }
}

describe('command line', () => {
  it('prints its URL when ready and then serves GET /services/data/', async () => {
    const p = run(['--port', '0', '--dataset', 'demo'])
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())
        if (m) { clearInterval(timer); resolve(m[1]) }
      }, 20)
      p.exited.then((code) => { clearInterval(timer); reject(new Error(`exited ${code}: ${p.output()}`)) })
    })
    const res = await fetch(`${url}/services/data/`)
    expect(res.status).toBe(200)
    const versions = (await res.json()) as Array<{ version: string; url: string; label: string }>
    expect(versions.at(-1)).toEqual({ label: "Winter '25", url: '/services/data/v62.0', version: '62.0' })
    expect(p.output()).toContain('cairn-demo-client')
    p.child.kill('SIGTERM')
    expect(await p.exited).toBe(0)
  })

  it('rejects an unknown flag with usage and exit code 2', async () => {
    const p = run(['--nope'])
    expect(await p.exited).toBe(2)
    expect(p.output()).toContain('Usage: npm run source-sim')
  })
})
