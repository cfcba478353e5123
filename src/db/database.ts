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

export interface InvitationTable {
  id: string
  org_id: string
  email: string
  email_key: string
  role: 'admin' | 'member'
  token_hash: Buffer
  invited_by: string | null
  created_at: CreatedAt
  expires_at: Date | string
  accepted_at: Date | string | null
  accepted_by: string | null
  revoked_at: Date | string | null
  email_status: 'not_configured' | 'sending' | 'sent' | 'failed'
  email_error: string | null
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

export interface OAuthClientTable {
  client_id: string
  org_id: string | null
  name: string
  redirect_uris: string[]
  scopes: string[]
  secret_hash: Buffer | null
  auth_method: 'client_secret_basic' | 'client_secret_post' | 'none'
  registration: 'settings' | 'cli' | 'dynamic' | 'metadata_document'
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>
  created_at: CreatedAt
  revoked_at: Date | string | null
}

export interface OAuthClientAccessTable {
  org_id: string
  client_id: string
  created_at: CreatedAt
  /** When the client last obtained tokens for the organization (a code exchange or a refresh). */
  last_issued_at: Date | string | null
  /** When a token of the client was last accepted on a request, to the minute (oauth/client-use.ts). */
  last_used_at: Date | string | null
  revoked_at: Date | string | null
}

export interface OAuthGrantTable {
  org_id: string
  id: string
  client_id: string
  user_id: string
  scopes: string[]
  resource: string
  created_at: Date | string
  revoked_at: Date | string | null
}

export interface OAuthCodeTable {
  code_hash: Buffer
  org_id: string
  client_id: string
  user_id: string
  redirect_uri: string
  redirect_uri_sent: boolean
  code_challenge: string
  scopes: string[]
  resource: string
  created_at: Date | string
  expires_at: Date | string
  consumed_at: Date | string | null
  grant_id: string | null
}

export interface OAuthTokenTable {
  token_hash: Buffer
  kind: 'access' | 'refresh'
  org_id: string
  grant_id: string
  client_id: string
  user_id: string
  resource: string
  scopes: string[]
  created_at: Date | string
  expires_at: Date | string
  used_at: Date | string | null
  revoked_at: Date | string | null
}

export interface RateLimitCounterTable {
  key: string
  window_start: Date | string
  count: number
}

export interface ApiRateLeaseTable {
  budget: string
  window_start: Date | string
  leased: number
  last_lease: number
}

export interface CustomFieldDefinitionTable {
  org_id: string
  id: string
  kind: string
  name: string
  label: string
  type: 'text' | 'number' | 'date' | 'boolean' | 'picklist'
  options: ColumnType<string[], string, string>
  required: boolean
  created_at: ColumnType<Date, Date | string, never>
  updated_at: ColumnType<Date, Date | string, Date | string>
}

export interface DB {
  custom_field_definitions: CustomFieldDefinitionTable
  oauth_clients: OAuthClientTable
  oauth_client_access: OAuthClientAccessTable
  oauth_grants: OAuthGrantTable
  oauth_codes: OAuthCodeTable
  oauth_tokens: OAuthTokenTable
  rate_limit_counters: RateLimitCounterTable
  api_rate_leases: ApiRateLeaseTable
  organizations: OrganizationTable
  users: UserTable
  memberships: MembershipTable
  invitations: InvitationTable
  sessions: SessionTable
  org_counters: OrgCounterTable
  sign_in_failures: SignInFailureTable
  schema_migrations: SchemaMigrationTable
}

export type UserRow = Selectable<UserTable>
export type OrganizationRow = Selectable<OrganizationTable>
