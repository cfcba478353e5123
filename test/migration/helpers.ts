/**
 * Shared by the migration suites: the settings a service needs to reach the simulator (its OAuth
 * client, loopback allowed), source tokens from the simulator's real OAuth flow, and starting an
 * analysis or a run through the API and waiting for the background runner to move it.
 */
import { expect } from 'vitest'
import type { SourceSim } from '../../tools/source-sim/main.ts'
import { CLIENT_ID, CLIENT_SECRET, login } from '../source-sim/helpers.ts'
import { json, type Member } from '../helpers/build-app.ts'
import type { MigrationConfig, MigrationStatus, MigrationView } from '../../src/migration/migration.types.ts'

/** Service settings for a simulator at `sim`: its demo OAuth client, and loopback addresses allowed. */
export function simSettings(sim: SourceSim): Record<string, string> {
  return {
    ALLOW_PRIVATE_OUTBOUND: 'true',
    SOURCE_CLIENT_ID: CLIENT_ID,
    SOURCE_CLIENT_SECRET: CLIENT_SECRET,
    SOURCE_LOGIN_URL: sim.url,
    SOURCE_SANDBOX_LOGIN_URL: sim.sandboxLoginUrl,
  }
}

export interface SourceTokens {
  src_instance_url: string
  src_access_token: string
  src_refresh_token?: string
  environment?: 'production' | 'sandbox'
}

/** Tokens of the simulator's production (or sandbox) org, from its OAuth web-server flow. */
export async function sourceTokens(sim: SourceSim, opts: { sandbox?: boolean; refresh?: boolean } = {}): Promise<SourceTokens> {
  const conn = await login(sim, { sandbox: opts.sandbox })
  return {
    src_instance_url: conn.instanceUrl,
    src_access_token: conn.accessToken!,
    ...(opts.refresh !== false && conn.refreshToken ? { src_refresh_token: conn.refreshToken } : {}),
    environment: opts.sandbox ? 'sandbox' : 'production',
  }
}

export async function getMigration(member: Member, id: string): Promise<MigrationView> {
  const res = await member.request({ method: 'GET', url: `/api/v1/migration/${id}` })
  expect(res.statusCode, res.body).toBe(200)
  return json(res)
}

/** Polls until the migration is in one of `statuses` (the runner works in the background). */
export async function waitFor(member: Member, id: string, statuses: MigrationStatus[], timeoutMs = 60_000): Promise<MigrationView> {
  const deadline = Date.now() + timeoutMs
  let m = await getMigration(member, id)
  while (!statuses.includes(m.status)) {
    if (Date.now() > deadline) throw new Error(`migration ${id} stayed ${m.status} (${m.status_reason ?? ''}), expected ${statuses.join('|')}`)
    await new Promise((r) => setTimeout(r, 100))
    m = await getMigration(member, id)
  }
  return m
}

export async function analyze(member: Member, tokens: SourceTokens): Promise<MigrationView> {
  const res = await member.request({ method: 'POST', url: '/api/v1/migration/analyze', payload: tokens })
  expect(res.statusCode, res.body).toBe(202)
  expect(json(res).status).toBe('analyzing')
  return waitFor(member, json(res).id, ['analyzed', 'failed'])
}

export async function configure(member: Member, id: string, config: MigrationConfig): Promise<MigrationView> {
  const res = await member.request({ method: 'PUT', url: `/api/v1/migration/${id}/config`, payload: config })
  expect(res.statusCode, res.body).toBe(200)
  return json(res)
}

export async function run(member: Member, id: string, timeoutMs = 120_000): Promise<MigrationView> {
  const res = await member.request({ method: 'POST', url: '/api/v1/migration/run', payload: { migration_id: id } })
  expect(res.statusCode, res.body).toBe(202)
  return waitFor(member, id, ['completed', 'completed_with_errors', 'failed', 'cancelled'], timeoutMs)
}

/** Every supported object the analysis found, with deduplication off: the whole source, one to one. */
export function everything(report: { objects: Array<{ name: string; target: string | null }> }): MigrationConfig {
  return {
    objects: report.objects.filter((o) => o.target !== null && o.name !== 'CaseComment').map((o) => o.name),
    field_overrides: {},
    relationships: { missing_parent: 'import_without_link', owners: 'match_by_email' },
    dedup: { accounts: { match_by: 'none', on_match: 'link' }, contacts: { match_by: 'none', on_match: 'link' }, leads: { match_by: 'none', on_match: 'link' } },
    phasing: 'all',
    emit_webhooks: false,
  }
}
