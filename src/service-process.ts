/**
 * The service process: reads the configuration, starts the service, prints where it listens, and
 * shuts down cleanly on SIGINT/SIGTERM (the embedded database must be closed, or it keeps the
 * process alive and its lock in place).
 */
import { ConfigError, loadConfig } from './config.ts'
import { DataDirLockedError } from './db/data-dir-lock.ts'
import { startService } from './runtime.ts'

const started = performance.now()
let config
try {
  config = loadConfig()
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(`Configuration error: ${err.message}`)
    process.exit(2)
  }
  throw err
}

try {
  const service = await startService(config)
  const ms = Math.round(performance.now() - started)
  const where = config.databaseUrl ? 'PostgreSQL' : `the embedded database in ${config.dataDir}`
  if (config.role === 'worker') console.log(`Cairn worker is running background work (webhook deliveries, migrations) on ${where}; it serves no HTTP.`)
  else console.log(`Cairn is ready in ${ms} ms on ${where}: ${config.publicUrl}`)
  if (config.role !== 'worker' && !config.publicUrl.includes(`:${config.port}`) && service.url) console.log(`(listening on ${service.url})`)
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`Received ${signal}, shutting down`)
    const timer = setTimeout(() => process.exit(1), 10_000)
    timer.unref()
    await service.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(err.message)
    process.exit(3)
  }
  console.error('Cairn failed to start:', err)
  process.exit(1)
}
