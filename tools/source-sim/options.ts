// Owns the simulator's options: defaults, and parsing the command line
// (`--port 4010 --dataset demo --accounts 1000 --contacts 1000000 ...`). Flags mirror the
// control endpoint's JSON so faults can be set either way.
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FaultConfig } from './http/faults.ts'

export interface SimOptions {
  port: number
  host: string
  /** `demo`, `generated`, a folder of sObject-tree files, or a fixture project name. */
  dataset: string
  fixturesDir: string
  seed: number
  accounts: number
  /** Per-object record counts overriding the generator's proportions. */
  counts: Record<string, number>
  clientId: string
  clientSecret: string
  redirectUris: string[]
  tokenTtlSeconds: number
  apiLimit: number
  /** A Bulk 2.0 query job reports JobComplete this long after creation. */
  bulkDelayMs: number
  faults: Partial<FaultConfig>
  /** Public base URL used in instance_url and links (defaults to the listening address). */
  publicUrl: string | null
  log: boolean
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

export const DEFAULTS: SimOptions = {
  port: 4010,
  host: '127.0.0.1',
  dataset: 'demo',
  fixturesDir: resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'salesforce'),
  seed: 42,
  accounts: 1000,
  counts: {},
  clientId: 'cairn-demo-client',
  clientSecret: 'cairn-demo-secret',
  redirectUris: [],
  tokenTtlSeconds: 7200,
  apiLimit: 100_000,
  bulkDelayMs: 0,
  faults: {},
  publicUrl: null,
  log: false,
}

/** Object names accepted as count flags: --contacts 5000 sets Contact. */
const COUNT_FLAGS: Record<string, string> = {
  users: 'User', contacts: 'Contact', leads: 'Lead', opportunities: 'Opportunity', products: 'Product2', cases: 'Case',
  'case-comments': 'CaseComment', tasks: 'Task', events: 'Event', projects: 'Project__c', subscriptions: 'acme__Subscription__c',
}

export const USAGE = `Usage: npm run source-sim -- [--port 4010] [--host 127.0.0.1] [--dataset demo|generated|<folder>|<fixture project>]
  [--fixtures-dir ../shared/fixtures/salesforce] [--seed 42] [--accounts 1000] [--contacts N --cases N --tasks N ...]
  [--client-id cairn-demo-client --client-secret cairn-demo-secret] [--redirect-uri <uri>]...
  [--token-ttl 7200] [--api-limit 100000] [--bulk-delay-ms 0] [--public-url <url>] [--log]
  Faults: [--error-rate 0.1] [--error-status 503] [--query-timeout-rate 0.1] [--drop-rate 0.1] [--delay-ms 200] [--fault-path /query] [--fault-pattern 'FROM User']`

export function parseArgs(argv: string[]): SimOptions {
  const o: SimOptions = { ...DEFAULTS, counts: {}, redirectUris: [], faults: {} }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const next = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`)
      return v
    }
    const num = () => {
      const v = Number(next())
      if (!Number.isFinite(v)) throw new Error(`${flag} needs a number`)
      return v
    }
    const name = flag.replace(/^--/, '')
    if (COUNT_FLAGS[name]) { o.counts[COUNT_FLAGS[name]] = num(); continue }
    switch (flag) {
      case '--port': o.port = num(); break
      case '--host': o.host = next(); break
      case '--dataset': o.dataset = next(); break
      case '--fixtures-dir': o.fixturesDir = resolve(next()); break
      case '--seed': o.seed = num(); break
      case '--accounts': o.accounts = num(); break
      case '--client-id': o.clientId = next(); break
      case '--client-secret': o.clientSecret = next(); break
      case '--redirect-uri': o.redirectUris.push(next()); break
      case '--token-ttl': o.tokenTtlSeconds = num(); break
      case '--api-limit': o.apiLimit = num(); break
      case '--bulk-delay-ms': o.bulkDelayMs = num(); break
      case '--public-url': o.publicUrl = next(); break
      case '--log': o.log = true; break
      case '--error-rate': o.faults.errorRate = num(); break
      case '--error-status': o.faults.errorStatus = num() as 500 | 503; break
      case '--query-timeout-rate': o.faults.queryTimeoutRate = num(); break
      case '--drop-rate': o.faults.dropRate = num(); break
      case '--delay-ms': o.faults.delayMs = num(); break
      case '--fault-path': o.faults.pathContains = next(); break
      case '--fault-pattern': o.faults.pathPattern = next(); break
      case '--help': case '-h': throw new Error(USAGE)
      default: throw new Error(`unknown flag ${flag}\n${USAGE}`)
    }
  }
  return o
}
