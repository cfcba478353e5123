/**
 * The operator CLI: `npm run cli -- <command>` (also the `cairn` bin). Prints JSON on success; on
 * failure a clear message on stderr and a non-zero exit. Command names and flags are an interface
 * that scripts outside the project rely on (docs/decisions.md, Operator interface).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/connect.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { distributeTables } from '../db/distribute.ts'
import { DataDirLockedError } from '../db/data-dir-lock.ts'
import { ProblemError } from '../shared/errors.ts'
import { isUuid } from '../shared/ids.ts'
import { addUserToOrganization, createOrganizationWithAdmin } from '../orgs/index.ts'
import { cliCommandsFromCapabilities } from './capability-commands.ts'

export class UsageError extends Error {}

export interface CliCommand {
  usage: string
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>
  run(database: Database, values: Record<string, unknown>): Promise<unknown>
}

function required(values: Record<string, unknown>, name: string): string {
  const v = values[name]
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`)
  return v
}

const commands: Record<string, CliCommand> = {
  'org create': {
    usage: 'org create --name <name> --admin-email <email> --admin-password <password> [--admin-name <name>]',
    options: { name: { type: 'string' }, 'admin-email': { type: 'string' }, 'admin-password': { type: 'string' }, 'admin-name': { type: 'string' } },
    async run(database, v) {
      const r = await createOrganizationWithAdmin(database.db, {
        name: required(v, 'name'),
        adminEmail: required(v, 'admin-email'),
        adminPassword: required(v, 'admin-password'),
        adminName: v['admin-name'] as string | undefined,
      })
      return { org_id: r.orgId, user_id: r.userId }
    },
  },
  'user create': {
    usage: 'user create --org <org_id> --email <email> --password <password> [--role admin|member] [--name <name>]',
    options: { org: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
    async run(database, v) {
      const org = required(v, 'org')
      if (!isUuid(org)) throw new UsageError('--org must be an organization id (a UUID)')
      const role = (v.role as string | undefined) ?? 'member'
      if (role !== 'admin' && role !== 'member') throw new UsageError('--role must be admin or member')
      const r = await addUserToOrganization(database.db, org, { email: required(v, 'email'), password: required(v, 'password'), role, name: v.name as string | undefined })
      return { user_id: r.userId }
    },
  },
  'db migrate': {
    usage: 'db migrate',
    options: {},
    async run(database) {
      return migrateToLatest(database)
    },
  },
  // Citus only (docs/scale-out.md, Distributing); without the extension it says so and changes nothing.
  'db distribute': {
    usage: 'db distribute',
    options: {},
    async run(database) {
      return distributeTables(database)
    },
  },
  ...cliCommandsFromCapabilities,
}

function usage(): string {
  return ['Usage: npm run cli -- <command> [options]', '', 'Commands:', ...Object.values(commands).map((c) => `  ${c.usage}`)].join('\n')
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  const name = argv.slice(0, 2).join(' ')
  const command = commands[name]
  if (!command) return { code: 2, stdout: '', stderr: `${argv.length ? `Unknown command "${argv.join(' ')}".\n` : ''}${usage()}\n` }
  let values: Record<string, unknown>
  try {
    values = parseArgs({ args: argv.slice(2), options: command.options, strict: true, allowPositionals: false }).values
  } catch (err) {
    return { code: 2, stdout: '', stderr: `${(err as Error).message}\nUsage: npm run cli -- ${command.usage}\n` }
  }
  let database: Database | null = null
  try {
    const config = loadConfig(env)
    database = await openDatabase(config)
    if (name !== 'db migrate') await migrateToLatest(database)
    const result = await command.run(database, values)
    return { code: 0, stdout: `${JSON.stringify(result)}\n`, stderr: '' }
  } catch (err) {
    if (err instanceof UsageError || (err as { usage?: boolean }).usage) return { code: 2, stdout: '', stderr: `${(err as Error).message}\nUsage: npm run cli -- ${command.usage}\n` }
    if (err instanceof ProblemError) return { code: 1, stdout: '', stderr: `${err.message}\n` }
    if (err instanceof ConfigError || err instanceof DataDirLockedError) return { code: 1, stdout: '', stderr: `${err.message}\n` }
    return { code: 1, stdout: '', stderr: `Failed: ${(err as Error).message}\n` }
  } finally {
    await database?.close()
  }
}

// `import.meta.main` is Node 24 only; this form also runs on Node 22.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await runCli(process.argv.slice(2))
  process.stdout.write(result.stdout)
  process.stderr.write(result.stderr)
  process.exitCode = result.code
}
