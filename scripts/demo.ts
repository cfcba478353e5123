/**
 * `npm run demo`: the whole migration wizard on one machine with one command. Starts the
 * source-platform simulator with its demo org (about 5,000 records; a smaller sandbox org beside
 * it) and the service on its own embedded database (./data/demo), configured as the simulator's
 * OAuth client, so Migration -> Connect -> Allow works without a real source platform.
 *
 *   npm run demo                       (service on http://localhost:3000, simulator on 4010)
 *   PORT=3100 SIM_PORT=4110 npm run demo
 */
import path from 'node:path'
import { spawn } from 'node:child_process'
import { startSourceSim } from '../tools/source-sim/main.ts'

const root = path.resolve(import.meta.dirname, '..')
const port = Number(process.env.PORT ?? 3000)
const simPort = Number(process.env.SIM_PORT ?? 4010)

const sim = await startSourceSim({ port: simPort, host: '127.0.0.1', dataset: 'demo' })
console.log(`Source-platform simulator (demo org) at ${sim.url}; sandbox login ${sim.sandboxLoginUrl}`)

const service = spawn(process.execPath, ['--max-semi-space-size=8', '--max-old-space-size=256', path.join(root, 'src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data/demo'),
    // The simulator listens on loopback: a local demo is what this setting exists for.
    ALLOW_PRIVATE_OUTBOUND: 'true',
    SOURCE_CLIENT_ID: sim.options.clientId,
    SOURCE_CLIENT_SECRET: sim.options.clientSecret,
    SOURCE_LOGIN_URL: sim.url,
    SOURCE_SANDBOX_LOGIN_URL: sim.sandboxLoginUrl,
  },
})
console.log(`Open http://localhost:${port}, create your organization, then Migration -> New migration (try the sandbox first).`)

let stopping = false
const stop = async (code: number) => {
  if (stopping) return
  stopping = true
  service.kill('SIGTERM')
  await sim.close()
  process.exit(code)
}
service.on('exit', (code) => void stop(code ?? 0))
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))
