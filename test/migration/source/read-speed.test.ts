// Read speed of readPages, REST keyset vs Bulk 2.0, on a generated org of 100,000 contacts. The
// simulator runs in its own process, as the platform would; the consumer spends 0.05 ms per record
// (a 20,000 records/s importer stand-in) so that one page of prefetch can overlap it. Reports
// wall-clock records/s and CPU per record of the client and of the simulator (CPU figures do not
// depend on machine load; wall-clock figures do). Asserts only completeness. Skipped unless
// SOURCE_READ_BENCH=1 (2-4 minutes):
//   SOURCE_READ_BENCH=1 npx vitest run test/migration/source/read-speed.test.ts
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import v8 from 'node:v8'
import vm from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceConnection } from '../../../src/migration/source/source-connection.ts'
import { readPages } from '../../../src/migration/source/record-reader.ts'
import { allowLoopback, connectByOAuth, FAST_POLL, open } from './helpers.ts'
import type { SourceSim } from '../../../tools/source-sim/main.ts'

const CONTACTS = 100_000
const CONSUMER_MS_PER_RECORD = 0.05
/** The simulator benchmark's field list (docs/benchmarks.md), for comparison with its figures. */
const TEN = ['Id', 'FirstName', 'LastName', 'Email', 'Phone', 'Title', 'AccountId', 'OwnerId', 'CreatedDate', 'SystemModstamp']
let child: ChildProcess
let url: string
let sc: SourceConnection
let all: string[]
let fieldTypes: Record<string, string>

const post = (path: string, body: unknown) => fetch(`${url}/__control/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const simCpu = async () => ((await (await fetch(`${url}/__control/state`)).json()) as { cpuMicros: number }).cpuMicros
const myCpu = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

describe.skipIf(!process.env.SOURCE_READ_BENCH)('read speed (prints, does not assert speed)', () => {
  beforeAll(async () => {
    allowLoopback()
    child = spawn(process.execPath, ['tools/source-sim/main.ts', '--port', '0', '--dataset', 'generated', '--accounts', '1000', '--contacts', String(CONTACTS), '--api-limit', '10000000'], { stdio: ['ignore', 'pipe', 'inherit'] })
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        const m = /ready at (http:\/\/[^\s]+)/.exec(chunk.toString())
        if (m) resolve(m[1])
      })
      child.on('exit', (code) => reject(new Error(`simulator exited with ${code}`)))
    })
    sc = await open(await connectByOAuth({ url, sandboxLoginUrl: `${url}/sandbox` } as SourceSim))
    const d = await sc.request<{ fields: Array<{ name: string; type: string }> }>('describe', sc.path('/sobjects/Contact/describe'))
    // What the importer reads at most: every field but the compound ones (read through their components).
    const readable = d.fields.filter((f) => f.type !== 'address' && f.type !== 'location')
    all = readable.map((f) => f.name)
    fieldTypes = Object.fromEntries(readable.map((f) => [f.name, f.type]))
    // Warm up the JIT of both paths so the first measured case is not penalised.
    for (const mode of ['rest', 'bulk'] as const) {
      let n = 0
      for await (const page of readPages(sc, { object: 'Contact', fields: TEN, fieldTypes, checkpoint: { after_id: null }, mode, batchSize: 2_000, bulkPoll: FAST_POLL })) if ((n += page.records.length) >= 20_000) break
    }
    console.log(`load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  }, 120_000)
  afterAll(() => {
    console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
    child?.kill()
  })

  it.each([
    [0, 10, 'rest', 2_000, true],
    [0, 10, 'rest', 2_000, false],
    [0, 10, 'bulk', 10_000, true],
    [0, 10, 'bulk', 50_000, true],
    [0, 52, 'rest', 2_000, true],
    [0, 52, 'bulk', 10_000, true],
    [100, 10, 'rest', 2_000, true],
    [100, 10, 'rest', 2_000, false],
    [100, 10, 'bulk', 10_000, true],
    [100, 10, 'bulk', 10_000, false],
  ] as const)('latency %i ms, %i fields: %s, pages of %i, prefetch %s', async (delayMs, width, mode, batchSize, prefetch) => {
    const fields = width === 10 ? TEN : all
    await post('faults', { delayMs })
    let records = 0
    const [cpu0, sim0, t0] = [myCpu(), await simCpu(), performance.now()]
    for await (const page of readPages(sc, { object: 'Contact', fields, fieldTypes, checkpoint: { after_id: null }, mode, batchSize, prefetch, bulkPoll: FAST_POLL })) {
      records += page.records.length
      await new Promise((r) => setTimeout(r, page.records.length * CONSUMER_MS_PER_RECORD))
    }
    const seconds = (performance.now() - t0) / 1000
    const [cpu1, sim1] = [myCpu(), await simCpu()]
    await post('reset', {})
    expect(records).toBe(CONTACTS)
    console.log([
      `latency ${String(delayMs).padStart(3)} ms`, `${String(fields.length).padStart(2)} fields`, mode.padEnd(4), `pages of ${String(batchSize).padStart(6)}`, `prefetch ${String(prefetch).padEnd(5)}`,
      `${String(Math.round(records / seconds)).padStart(6)} records/s`, `client CPU ${((cpu1 - cpu0) / records).toFixed(1).padStart(5)} µs/record`,
      `simulator CPU ${((sim1 - sim0) / records).toFixed(1).padStart(5)} µs/record`,
    ].join(' | '))
  }, 300_000)

  it.each([
    ['rest', 2_000],
    ['bulk', 10_000],
    ['bulk', 50_000],
  ] as const)('memory stays flat: %s, pages of %i, all fields (heap after a full GC at every page)', async (mode, batchSize) => {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    gc()
    const base = process.memoryUsage().heapUsed
    let peak = 0
    let records = 0
    for await (const page of readPages(sc, { object: 'Contact', fields: all, fieldTypes, checkpoint: { after_id: null }, mode, batchSize, bulkPoll: FAST_POLL })) {
      records += page.records.length
      gc()
      peak = Math.max(peak, process.memoryUsage().heapUsed - base)
    }
    expect(records).toBe(CONTACTS)
    console.log(`memory | ${mode.padEnd(4)} | pages of ${String(batchSize).padStart(6)} | ${all.length} fields | live heap while reading at most +${(peak / 1e6).toFixed(0)} MB above the start (the page held by the consumer and the one prefetched)`)
  }, 300_000)
})
