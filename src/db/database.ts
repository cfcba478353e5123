/**
 * Kysely's view of the tables that the typed query builder touches. Record tables are driven by
 * their kind definitions (records/record-kind.ts) through `sql`, so they are not listed here.
 */
import type { ColumnType, Selectable } from 'kysely'

type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export interface OrganizationTable {
  id: string
  name: string
  created_at: CreatedAt
}

export interface UserTable {
  id: string
  email: string
  email_key: string
  name: string
  password_hash: string
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface MembershipTable {
  org_id: string
  user_id: string
  role: 'admin' | 'member'
  created_at: CreatedAt
}

export interface SessionTable {
  token_hash: Buffer
  user_id: string
  active_org_id: string
  csrf_token: string
  created_at: CreatedAt
  expires_at: Date | string
}

export interface OrgCounterTable {
  org_id: string
  name: string
  value: ColumnType<string | number, number, never>
}

export interface SignInFailureTable {
  key: string
  failed_at: ColumnType<Date, Date | string | undefined, never>
}

export interface SchemaMigrationTable {
  version: number
  name: string
  applied_at: CreatedAt
}

export interface DB {
  organizations: OrganizationTable
  users: UserTable
  memberships: MembershipTable
  sessions: SessionTable
  org_counters: OrgCounterTable
  sign_in_failures: SignInFailureTable
  schema_migrations: SchemaMigrationTable
}

export type UserRow = Selectable<UserTable>
export type OrganizationRow = Selectable<OrganizationTable>
