/**
 * The background-work process (`npm run worker`): the same service with SERVICE_ROLE=worker, so
 * operators can run webhook deliveries and migrations in processes that serve no HTTP, next to API processes
 * started with SERVICE_ROLE=web.
 */
import module from 'node:module'

module.enableCompileCache?.()
process.env.SERVICE_ROLE = 'worker'
await import('./service-process.ts')
