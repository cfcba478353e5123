// Benchmark of the source-platform simulator (not a test): starts it in a child process with a
// generated org of over a million records (Contact alone 1,000,000), logs in through OAuth, then
// measures records/s through /query locator paging (2,000-row pages following nextRecordsUrl),
// through keyset paging (WHERE Id > :last ORDER BY Id LIMIT 2000) and through Bulk API 2.0 CSV, with
// the simulator's RSS before and after. A bare node:http server answering a fixed JSON page of the
// same size is measured with the same client loop in the same run, so machine noise is visible.
//   node bench/source-sim.ts [--contacts 1000000] [--pages N]
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

const rss = async (url: string) => ((await (await fetch(`${url}/__control/state`)).json()) as { memory: { rssBytes: number } }).memory.rssBytes
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`
const rate = (n: number, ms: number) => Math.round((n * 1000) / ms)

async function queryPaging(url: string, headers: Record<string, string>, first: string): Promise<{ records: number; ms: number; bytes: number; firstPage: string; rssSamples: number[] }> {
  const t0 = performance.now()
  let next: string | undefined = first
  let records = 0, bytes = 0, firstPage = '', pages = 0
  const rssSamples: number[] = []
  while (next) {
    // RSS every 100 pages (200,000 records): flat means serving does not accumulate per record.
    if (pages++ % 100 === 99) rssSamples.push(await rss(url))
    const text = await (await fetch(url + next, { headers })).text()
    if (!firstPage) firstPage = text
    bytes += text.length
    const page = JSON.parse(text) as { records: unknown[]; nextRecordsUrl?: string; done: boolean }
    records += page.records.length
    next = page.nextRecordsUrl
  }
  return { records, ms: performance.now() - t0, bytes, firstPage, rssSamples }
}

async function keysetPaging(url: string, headers: Record<string, string>): Promise<{ records: number; ms: number }> {
  const t0 = performance.now()
  let last = '000000000000000AAA', records = 0
  for (;;) {
    const soql = `SELECT ${FIELDS} FROM Contact WHERE Id > '${last}' ORDER BY Id LIMIT 2000`
    const page = (await (await fetch(`${url}/services/data/v62.0/query?q=${encodeURIComponent(soql)}`, { headers })).json()) as { records: Array<{ Id: string }> }
    if (!page.records.length) break
    records += page.records.length
    last = page.records[page.records.length - 1].Id
  }
  return { records, ms: performance.now() - t0 }
}

async function bulk(url: string, headers: Record<string, string>): Promise<{ records: number; ms: number; pages: number }> {
  const t0 = performance.now()
  const job = (await (await fetch(`${url}/services/data/v62.0/jobs/query`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'query', query: `SELECT ${FIELDS} FROM Contact` }),
  })).json()) as { id: string }
  for (;;) {
    const s = (await (await fetch(`${url}/services/data/v62.0/jobs/query/${job.id}`, { headers })).json()) as { state: string }
    if (s.state === 'JobComplete') break
    await new Promise((r) => setTimeout(r, 50))
  }
  let locator: string | null = null, records = 0, pages = 0
  do {
    const res: Response = await fetch(`${url}/services/data/v62.0/jobs/query/${job.id}/results${locator ? `?locator=${locator}` : ''}`, { headers: { ...headers, Accept: 'text/csv' } })
    // Count rows by the platform's header; quoted values may contain line breaks.
    const text = await res.text()
    if (!text.startsWith('"Id"')) throw new Error('unexpected CSV page')
    records += Number(res.headers.get('sforce-numberofrecords'))
    pages++
    locator = res.headers.get('sforce-locator')
  } while (locator && locator !== 'null')
  return { records, ms: performance.now() - t0, pages }
}

async function main(): Promise<void> {
  const here = fileURLToPath(import.meta.url)
  const simMain = fileURLToPath(new URL('../tools/source-sim/main.ts', import.meta.url))
  console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs; generated org: --accounts 50000 --contacts ${CONTACTS}`)

  const t0 = performance.now()
  const { child, url } = await startChild([simMain, '--port', '0', '--dataset', 'generated', '--accounts', '50000', '--contacts', String(CONTACTS), '--api-limit', '10000000'])
  try {
    console.log(`simulator ready in ${Math.round(performance.now() - t0)} ms`)
    const tok = await login(url)
    const headers = { Authorization: `Bearer ${tok}` }
    const rss0 = await rss(url)
    const counts = (await (await fetch(`${url}/services/data/v62.0/limits/recordCount`, { headers })).json()) as { sObjects: Array<{ count: number }> }
    console.log(`org holds ${counts.sObjects.reduce((n, o) => n + o.count, 0)} records (Contact ${CONTACTS})`)

    const q = await queryPaging(url, headers, `/services/data/v62.0/query?q=${encodeURIComponent(`SELECT ${FIELDS} FROM Contact`)}`)
    const rss1 = await rss(url)
    console.log(`/query locator paging: ${q.records} records in ${Math.round(q.ms)} ms = ${rate(q.records, q.ms)} records/s (${(q.bytes / 1048576).toFixed(0)} MB JSON, ${Math.ceil(q.records / 2000)} pages)`)
    console.log(`  simulator RSS every 200,000 records served: ${q.rssSamples.map(mb).join(', ')}`)

    const k = await keysetPaging(url, headers)
    const rss2 = await rss(url)
    console.log(`/query keyset paging (Id > :last ORDER BY Id LIMIT 2000): ${k.records} records in ${Math.round(k.ms)} ms = ${rate(k.records, k.ms)} records/s`)

    const b = await bulk(url, headers)
    const rss3 = await rss(url)
    console.log(`Bulk 2.0 CSV: ${b.records} records in ${Math.round(b.ms)} ms = ${rate(b.records, b.ms)} records/s (${b.pages} result pages)`)
    console.log(`simulator RSS: ${mb(rss0)} after start, ${mb(rss1)} after /query paging, ${mb(rss2)} after keyset paging, ${mb(rss3)} after Bulk`)

    // Baseline: a bare node:http server returning the simulator's first page verbatim.
    const pageFile = join(mkdtempSync(join(tmpdir(), 'source-sim-bench-')), 'page.json')
    writeFileSync(pageFile, q.firstPage)
    const base = await startChild([here, '--baseline-server'], { BASELINE_PAGE_FILE: pageFile })
    try {
      const pages = Math.ceil(q.records / 2000)
      const bt0 = performance.now()
      let n = 0
      for (let i = 0; i < pages; i++) n += ((await (await fetch(base.url + '/')).json()) as { records: unknown[] }).records.length
      const bms = performance.now() - bt0
      console.log(`baseline (bare node:http, fixed same-size page, same client loop): ${n} records in ${Math.round(bms)} ms = ${rate(n, bms)} records/s`)
    } finally {
      base.child.kill()
    }
  } finally {
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
