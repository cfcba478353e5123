/**
 * The migration's state machine as the API drives it (docs/decisions.md, "Migration states"): start an
 * analysis, save the configuration, start a run (or its next phase), cancel. The background runner
 * moves the rest (analyzing -> analyzed | failed, running <-> paused -> completed ...). Each
 * transition checks the current state under a row lock, so two requests cannot both start a run.
 */
import { writeTransaction } from '../db/write-transaction.ts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { Conflict, NotFound } from '../shared/errors.ts'
import { uuidv7 } from '../shared/ids.ts'
import type { SecretBox } from '../shared/secret-box.ts'
import { validateConfig } from './config/validate-config.ts'
import { defaultConfig, IMPORT_ORDER } from './migration.defaults.ts'
import { findMigration, importingMigration, insertMigration, updateMigration, type MigrationRow } from './migration.repository.ts'
import type { MigrationConfig, MigrationStatus, SourceEnvironment } from './migration.types.ts'
import { insertObjects } from './progress.repository.ts'

type Db = Kysely<DB>

/** States in which the migration is over: its source tokens are deleted on entering them. */
export const FINAL_STATUSES: ReadonlySet<MigrationStatus> = new Set(['failed', 'cancelled'])

export function hasNextPhase(m: Pick<MigrationRow, 'status' | 'phase_current' | 'phase_total'>): boolean {
  return (m.status === 'completed' || m.status === 'completed_with_errors') && (m.phase_current ?? 1) < (m.phase_total ?? 1)
}

/** Ended for good: nothing more can run, so the source credentials are no longer needed. */
export function isEnded(m: Pick<MigrationRow, 'status' | 'phase_current' | 'phase_total'>): boolean {
  return FINAL_STATUSES.has(m.status) || ((m.status === 'completed' || m.status === 'completed_with_errors') && !hasNextPhase(m))
}

export interface SourceCredentials {
  instanceUrl: string
  accessToken: string
  refreshToken: string | null
  environment: SourceEnvironment | null
  loginUrl: string | null
  sourceOrgId: string | null
}

/** Creates the migration in `analyzing`; the runner reads the source and writes the report. */
export async function startAnalysis(db: Db, box: SecretBox, auth: AuthContext, creds: SourceCredentials, now: Date): Promise<string> {
  return writeTransaction(db, auth.receipt, async (trx) => {
    const id = uuidv7(now)
    await insertMigration(
      trx,
      auth.orgId,
      {
        id,
        environment: creds.environment,
        srcInstanceUrl: creds.instanceUrl,
        srcLoginUrl: creds.loginUrl,
        accessTokenSealed: box.seal(creds.accessToken),
        refreshTokenSealed: creds.refreshToken ? box.seal(creds.refreshToken) : null,
        sourceOrgId: creds.sourceOrgId,
        createdBy: auth.userId,
      },
      now,
    )
    return id
  })
}

async function lockMigration(trx: Db, orgId: string, id: string): Promise<MigrationRow> {
  const m = await findMigration(trx, orgId, id, { full: true, forUpdate: true })
  if (!m) throw new NotFound('Migration')
  return m
}

function stateConflict(m: MigrationRow, action: string, allowed: string): Conflict {
  return new Conflict(`The migration is ${m.status.replaceAll('_', ' ')}; ${action} needs it to be ${allowed}.`)
}

/** Configure: validated against the analysis; may be saved again until the run starts. */
export async function saveConfig(db: Db, auth: AuthContext, id: string, config: MigrationConfig, now: Date): Promise<void> {
  await writeTransaction(db, auth.receipt, async (trx) => {
    const m = await lockMigration(trx, auth.orgId, id)
    if (m.status !== 'analyzed' && m.status !== 'configured') throw stateConflict(m, 'saving the configuration', 'analyzed or configured')
    validateConfig(config, m.report!)
    await updateMigration(trx, auth.orgId, id, { status: 'configured', config }, now)
  })
}

/** The configuration a run uses: the saved one, or the analysis' defaults when Configure was skipped. */
export function configOf(m: MigrationRow): MigrationConfig {
  if (m.config) return m.config
  return defaultConfig(m.report!.objects.filter((o) => o.default_selected).map((o) => o.name))
}

/** The steps of a run, in import order: selected objects (comments follow their cases) of one phase. */
export function stepsOf(config: MigrationConfig, phase: number | null) {
  const selected = new Set(config.objects)
  return IMPORT_ORDER.map((step, position) => ({ step, position })).filter(
    ({ step }) => (selected.has(step.object) || (step.follows !== undefined && selected.has(step.follows))) && (phase === null || step.phase === phase),
  )
}

/** Run: analyzed | configured -> running, or the next phase of a phased run. Answers at once. */
export async function startRun(db: Db, auth: AuthContext, id: string, now: Date): Promise<void> {
  await writeTransaction(db, auth.receipt, async (trx) => {
    const m = await lockMigration(trx, auth.orgId, id)
    const next = hasNextPhase(m)
    if (m.status !== 'analyzed' && m.status !== 'configured' && !next) {
      throw stateConflict(m, 'starting a run', 'analyzed or configured (or a phased run with a phase left)')
    }
    if (!m.access_token_sealed) throw new Conflict('The source platform credentials of this migration are gone; connect again and start a new migration.')
    const other = await importingMigration(trx, auth.orgId, id)
    if (other) throw anotherImport(`Migration ${other.id} of this organization is ${other.status}`)
    const config = configOf(m)
    validateConfig(config, m.report!)
    let phase: number
    let phaseTotal: number
    if (next) {
      phase = (m.phase_current ?? 1) + 1
      phaseTotal = m.phase_total!
    } else {
      // A phased run whose first phase has nothing selected is a single run of the rest.
      phaseTotal = config.phasing === 'accounts_contacts_first' && stepsOf(config, 1).length > 0 && stepsOf(config, 2).length > 0 ? 2 : 1
      phase = 1
    }
    const counts = new Map(m.report!.objects.map((o) => [o.name, o.record_count]))
    const steps = stepsOf(config, phaseTotal === 1 ? null : phase)
    await insertObjects(
      trx,
      auth.orgId,
      id,
      steps.map(({ step, position }) => ({ object: step.object, position, phase, target: step.target, total: counts.get(step.object) ?? 0 })),
    )
    // Two runs started at the same moment: the index of migration 0007 lets one through.
    await updateMigration(
      trx,
      auth.orgId,
      id,
      {
        status: 'running',
        status_reason: null,
        config,
        phase_current: phase,
        phase_total: phaseTotal,
        started_at: m.started_at ?? now,
        finished_at: null,
        validation: null,
        resume_at: null,
      },
      now,
    ).catch((err: unknown) => {
      const e = err as { code?: string; constraint?: string }
      throw e?.code === '23505' && e.constraint === 'migrations_one_import_per_org' ? anotherImport('Another migration of this organization has just started') : err
    })
  })
}

/** One import into an organization at a time (migration 0007 says why). */
function anotherImport(what: string): Conflict {
  return new Conflict(`${what}: an organization imports one migration at a time, so that two imports cannot both create the same record. Wait for it to finish, or cancel it.`)
}

/**
 * Cancel. Work under way stops at its next page (the runner sees the request); a migration nobody
 * is working on (analyzed, configured, paused, between phases) is cancelled at once.
 */
export async function requestCancel(db: Db, auth: AuthContext, id: string, now: Date): Promise<void> {
  await writeTransaction(db, auth.receipt, async (trx) => {
    const m = await lockMigration(trx, auth.orgId, id)
    if (isEnded(m)) throw stateConflict(m, 'cancelling', 'analyzing, analyzed, configured, running or paused')
    const worked = m.status === 'analyzing' || m.status === 'running'
    if (worked) {
      await updateMigration(trx, auth.orgId, id, { cancel_requested_at: now }, now)
    } else {
      await updateMigration(trx, auth.orgId, id, { ...endedPatch('cancelled', 'Cancelled by a person before it finished.', now), cancel_requested_at: now }, now)
    }
  })
}

/** The changes that end a migration: its state, why, when, and the source credentials deleted. */
export function endedPatch(status: MigrationStatus, reason: string | null, now: Date) {
  return { status, status_reason: reason, finished_at: now, resume_at: null, access_token_sealed: null, refresh_token_sealed: null }
}
