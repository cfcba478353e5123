/**
 * The real service as a child process (`src/server.ts`), for tests about processes: crashes,
 * several processes on one PostgreSQL, worker mode.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { GENEROUS_RATE_LIMITS } from './test-app.ts'
import { childStatementCapture } from './statement-capture.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface ChildService {
  child: ChildProcess
  kill(signal?: NodeJS.Signals): Promise<void>
}

export { GENEROUS_RATE_LIMITS }

/** Starts the service and waits until it answers /healthz, or (SERVICE_ROLE=worker) says it runs. */
export async function spawnService(env: Record<string, string>): Promise<ChildService> {
  // The child's statements go to the Citus query rules check like the test process's own.
  const capture = childStatementCapture()
  const child = spawn(path.join(ROOT, 'node_modules/.bin/node'), [...capture.nodeArgs, path.join(ROOT, 'src/server.ts')], {
    // Quotas no test's load reaches, unless a test sets its own (test/http/rate-limits.test.ts).
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...GENEROUS_RATE_LIMITS, ...capture.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  const service: ChildService = {
    child,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill(signal)
      await exited
    },
  }
  // Up to 60 s: a start takes 1-3 s on a quiet machine and over 20 s on two cores at load 15.
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${output}`)
    if (env.SERVICE_ROLE === 'worker') {
      if (output.includes('Cairn worker is running')) return service
    } else {
      try {
        if ((await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).ok) return service
      } catch {
        /* starting */
      }
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  await service.kill()
  throw new Error('service did not start')
}
