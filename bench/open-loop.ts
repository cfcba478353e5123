/**
 * The open-loop load generator, run as a process of its own by bench/lib.ts `openLoop`:
 *
 *   node bench/open-loop.ts '{"url":"http://127.0.0.1:3701/...","headers":{},"rate":1000,"seconds":10}'
 *
 * prints one line of JSON (LoadResult). Run inside the benchmark process, the client paced its
 * requests from a heap that the earlier autocannon rounds had filled: its own pauses showed as
 * the server's tail (a bare HTTP server answering a file measured p99 14-18 ms at 1,000 req/s).
 *
 * A true open loop: request i is due at start + i / rate, sent then on a free keep-alive socket
 * whatever earlier answers did, and its latency counts from when it was due, so a stall shows in
 * the requests that waited behind it (no coordinated omission). autocannon's overallRate instead
 * lets each connection send its share of a second back to back and then wait for the next second:
 * its p50/p99 are those of 64 requests in flight at once, not of an evenly paced rate.
 */
import http from 'node:http'

interface OpenLoopRun {
  url: string
  headers: Record<string, string>
  rate: number
  seconds: number
  maxSockets?: number
}

async function openLoopHere({ url, headers, rate, seconds, maxSockets = 64 }: OpenLoopRun) {
  const agent = new http.Agent({ keepAlive: true, maxSockets })
  const total = Math.round(rate * seconds)
  const latencies = new Float64Array(total)
  let errors = 0
  let sent = 0
  let done = 0
  const t0 = performance.now()
  const intervalMs = 1000 / rate
  await new Promise<void>((resolve) => {
    const finish = (due: number, ok: boolean) => {
      latencies[done] = performance.now() - due
      if (!ok) errors++
      if (++done === total) resolve()
    }
    const tick = () => {
      const now = performance.now()
      while (sent < total && t0 + sent * intervalMs <= now) {
        const due = t0 + sent * intervalMs
        sent++
        const req = http.get(url, { agent, headers }, (res) => {
          res.resume()
          res.on('end', () => finish(due, res.statusCode === 200))
        })
        req.on('error', () => finish(due, false))
      }
      if (sent < total) setTimeout(tick, Math.max(0, t0 + sent * intervalMs - performance.now()))
    }
    tick()
  })
  const elapsed = (performance.now() - t0) / 1000
  agent.destroy()
  latencies.sort()
  const at = (p: number) => latencies[Math.min(total - 1, Math.floor((p / 100) * total))]
  return { rps: total / elapsed, requests: total, p50: at(50), p99: at(99), non2xx: errors }
}

console.log(JSON.stringify(await openLoopHere(JSON.parse(process.argv[2]) as OpenLoopRun)))
