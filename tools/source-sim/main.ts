// Command-line entry of the source-platform simulator (`npm run source-sim -- --port 4010
// --dataset demo`). Imports nothing from src/: it is a stand-alone stand-in for the source platform.
// Importing this module gives `startSourceSim` without starting anything.
import { parseArgs } from './options.ts'
import { startSourceSim } from './server.ts'

export { startSourceSim } from './server.ts'
export type { SourceSim } from './server.ts'
export type { SimOptions } from './options.ts'

async function cli(): Promise<void> {
  let options
  try {
    options = parseArgs(process.argv.slice(2))
  } catch (e) {
    console.error((e as Error).message)
    process.exit(2)
  }
  const started = Date.now()
  const sim = await startSourceSim(options)
  const counts = [...sim.production.data].filter(([, d]) => d.live > 0).map(([k, d]) => `${k}=${d.live}`).join(' ')
  console.log(`source-platform simulator ready at ${sim.url} (dataset ${sim.production.source}; started in ${Date.now() - started} ms)`)
  console.log(`  login URL ${sim.url} (production org ${sim.production.orgId}), sandbox login URL ${sim.sandboxLoginUrl} (org ${sim.sandbox.orgId})`)
  console.log(`  OAuth client ${sim.options.clientId} / ${sim.options.clientSecret}; records: ${counts}`)
  const stop = async () => {
    await sim.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

if (import.meta.main) {
  cli().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
}
