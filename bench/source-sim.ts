// Benchmark of the source-platform simulator (not a test; results go to docs/benchmarks.md).
// Starts the simulator in a child process with a generated org of 1.86 million records (Contact
// alone 1,000,000), logs in through OAuth, and reads every Contact four ways, interleaved in
// 200,000-record segments so all see the same machine load: /query locator paging (2,000-row pages
// following nextRecordsUrl), keyset paging (WHERE Id > :last ORDER BY Id LIMIT 2000), Bulk API 2.0
// CSV, and a baseline bare node:http server (own process) returning the simulator's first page with
// the same client loop. Prints records/s, the simulator's CPU per record and its RSS over time.
//   node bench/source-sim.ts [--contacts 1000000]
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const arg = (name: string, def: number) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : def
}
const CONTACTS = arg('--contacts', 1_000_000)
const FIELDS = 'Id, FirstName, LastName, Email, Phone, Title, AccountId, OwnerId, CreatedDate, SystemModstamp'

function startChild(argv: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let buf = ''
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const m = /ready at (http:\/\/[^\s]+)/.exec(buf)
      if (m) resolve({ child, url: m[1] })
    })
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${buf}`)))
  })
}

async function login(url: string): Promise<string> {
  const redirect = 'http://127.0.0.1:9/cb'
  const page = await (await fetch(`${url}/services/oauth2/authorize?response_type=code&client_id=cairn-demo-client&redirect_uri=${encodeURIComponent(redirect)}&scope=api`)).text()
  const form = new URLSearchParams()
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1], m[2].replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))))
  form.set('decision', 'allow')
  const res = await fetch(`${url}/services/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' })
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!
  const tok = await fetch(`${url}/services/oauth2/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: 'cairn-demo-client', client_secret: 'cairn-demo-secret', redirect_uri: redirect }),
  }).then((r) => r.json() as Promise<{ access_token: string }>)
  return tok.access_token
}

const state = async (url: string) => (await (await fetch(`${url}/__control/state`)).json()) as { memory: { rssBytes: number }; cpuMicros: number }
const rss = async (url: string) => (await state(url)).memory.rssBytes
const cpu = async (url: string) => (await state(url)).cpuMicros
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
const rate = (n: number, ms: number) => Math.round((n * 1000) / ms)

// Each method is a resumable walk over the whole Contact object; the benchmark advances all of
// them in interleaved segments of 200,000 records, so each sees the same machine load (the
// machine is shared: a method measured alone at a busy moment would look slower than it is).
interface Walk { name: string; records: number; ms: number; cpuMs: number; done: boolean; step(): Promise<void> }

function timed(name: string, fetchPage: () => Promise<boolean>): Walk {
  const w: Walk = {
    name, records: 0, ms: 0, cpuMs: 0, done: false,
    async step() {
      const t0 = performance.now()
      w.done = await fetchPage()
      w.ms += performance.now() - t0
    },
  }
  return w
}

function locatorWalk(url: string, headers: Record<string, string>, soql: string, firstPage: { text: string }): Walk {
  let next: string | undefined = `/services/data/v62.0/query?q=${encodeURIComponent(soql)}`
  const w = timed('/query locator paging (2,000-row pages via nextRecordsUrl)', async () => {
    const text = await (await fetch(url + next, { headers })).text()
    if (!firstPage.text) firstPage.text = text
    const page = JSON.parse(text) as { records: unknown[]; nextRecordsUrl?: string }
    w.records += page.records.length
    next = page.nextRecordsUrl
    return !next
  })
  return w
}

function keysetWalk(url: string, headers: Record<string, string>): Walk {
  let last = '000000000000000AAA'
  const w = timed('/query keyset paging (WHERE Id > :last ORDER BY Id LIMIT 2000)', async () => {
    const soql = `SELECT ${FIELDS} FROM Contact WHERE Id > '${last}' ORDER BY Id LIMIT 2000`
    const page = (await (await fetch(`${url}/services/data/v62.0/query?q=${encodeURIComponent(soql)}`, { headers })).json()) as { records: Array<{ Id: string }> }
    w.records += page.records.length
    if (page.records.length) last = page.records[page.records.length - 1].Id
    return page.records.length < 2000
  })
  return w
}

async function bulkWalk(url: string, headers: Record<string, string>): Promise<Walk> {
  let id = ''
  let locator: string | null = null
  const w = timed('Bulk API 2.0 CSV (job + 50,000-row result pages)', async () => {
    if (!id) {
      const job = (await (await fetch(`${url}/services/data/v62.0/jobs/query`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'query', query: `SELECT ${FIELDS} FROM Contact` }),
      })).json()) as { id: string }
      id = job.id
      for (;;) {
        const s = (await (await fetch(`${url}/services/data/v62.0/jobs/query/${id}`, { headers })).json()) as { state: string }
        if (s.state === 'JobComplete') break
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    const res: Response = await fetch(`${url}/services/data/v62.0/jobs/query/${id}/results${locator ? `?locator=${locator}` : ''}`, { headers: { ...headers, Accept: 'text/csv' } })
    const text = await res.text()
    if (!text.startsWith('"Id"')) throw new Error('unexpected CSV page')
    // Count rows by the platform's header; quoted values may contain line breaks.
    w.records += Number(res.headers.get('sforce-numberofrecords'))
    locator = res.headers.get('sforce-locator')
    return locator === 'null'
  })
  return w
}

function baselineWalk(baseUrl: string, pages: number): Walk {
  let n = 0
  const w = timed('baseline: bare node:http server, fixed same-size JSON page, same client loop', async () => {
    const page = (await (await fetch(baseUrl + '/')).json()) as { records: unknown[] }
    w.records += page.records.length
    return ++n >= pages
  })
  return w
}

async function main(): Promise<void> {
  const here = fileURLToPath(import.meta.url)
  const simMain = fileURLToPath(new URL('../tools/source-sim/main.ts', import.meta.url))
  const os = await import('node:os')
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  console.log(`simulator: --dataset generated --accounts 50000 --contacts ${CONTACTS}`)

  const t0 = performance.now()
  const { child, url } = await startChild([simMain, '--port', '0', '--dataset', 'generated', '--accounts', '50000', '--contacts', String(CONTACTS), '--api-limit', '10000000'])
  let base: { child: ChildProcess; url: string } | null = null
  try {
    console.log(`simulator ready in ${Math.round(performance.now() - t0)} ms`)
    const tok = await login(url)
    const headers = { Authorization: `Bearer ${tok}` }
    const counts = (await (await fetch(`${url}/services/data/v62.0/limits/recordCount`, { headers })).json()) as { sObjects: Array<{ count: number }> }
    console.log(`org holds ${counts.sObjects.reduce((n, o) => n + o.count, 0)} records (Contact ${CONTACTS}); fields: ${FIELDS}`)
    const rss0 = await rss(url)

    // The baseline serves the simulator's own first page, so it needs that page first.
    const firstPage = { text: '' }
    const loc = locatorWalk(url, headers, `SELECT ${FIELDS} FROM Contact`, firstPage)
    await loc.step()
    const pageFile = join(mkdtempSync(join(tmpdir(), 'source-sim-bench-')), 'page.json')
    writeFileSync(pageFile, firstPage.text)
    base = await startChild([here, '--baseline-server'], { BASELINE_PAGE_FILE: pageFile })

    const walks = [loc, keysetWalk(url, headers), await bulkWalk(url, headers), baselineWalk(base.url, Math.ceil(CONTACTS / 2000))]
    const rssSamples: number[] = []
    const SEGMENT = 200_000
    for (let seg = 1; walks.some((w) => !w.done); seg++) {
      for (const w of walks) {
        // The simulator's own CPU time per method: a load-independent cost per record.
        const c0 = await cpu(url)
        while (!w.done && w.records < seg * SEGMENT) await w.step()
        w.cpuMs += ((await cpu(url)) - c0) / 1000
      }
      rssSamples.push(await rss(url))
    }
    for (const w of walks) {
      const perRecord = w === walks[3] ? '' : `; simulator CPU ${((w.cpuMs * 1000) / w.records).toFixed(1)} µs/record = ${rate(w.records, w.cpuMs)} records per CPU-second`
      console.log(`${w.name}: ${w.records} records in ${Math.round(w.ms)} ms = ${rate(w.records, w.ms)} records/s${perRecord}`)
    }
    console.log(`simulator RSS: ${mb(rss0)} after start; after each 200,000 records per method: ${rssSamples.map(mb).join(', ')}`)
    console.log(`load average at the end ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  } finally {
    base?.child.kill()
    child.kill()
  }
}

// Dispatch last: the helpers above must be initialised before main() runs.
if (args.includes('--baseline-server')) {
  // Child mode: a bare node:http server returning one fixed page, as cheap as serving can get.
  const page = readFileSync(process.env.BASELINE_PAGE_FILE!, 'utf8')
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' })
    res.end(page)
  })
  server.listen(0, '127.0.0.1', () => {
    const a = server.address() as { port: number }
    console.log(`ready at http://127.0.0.1:${a.port}`)
  })
} else {
  await main()
}
