/** What a background migration job works with: the database, secrets, settings, its claim and clock. */
import type { ChangeJournal } from '../../records/index.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.ts'
import type { DB } from '../../db/database.ts'
import type { SecretBox } from '../../shared/secret-box.ts'
import type { MigrationRow } from '../migration.repository.ts'
import type { ClaimKeeper } from './claim-keeper.ts'

export interface JobContext {
  db: Kysely<DB>
  /** Where the run's record changes go (src/events). */
  journal: ChangeJournal
  box: SecretBox
  config: Config
  log: FastifyBaseLogger
  /** This process's claim name (lease_owner). */
  owner: string
  migration: MigrationRow
  claim: ClaimKeeper
  /** The database has a single connection (embedded): no concurrent transactions. */
  single: boolean
  now(): Date
}
