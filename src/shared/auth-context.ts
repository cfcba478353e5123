/**
 * Who is calling, for which organization, with which scopes: set on `request.auth` by the session
 * or bearer check and passed to every service call, so tenancy shows in every signature.
 */
export type Scope = 'crm:read' | 'crm:write' | 'erp:read'
export const ALL_SCOPES: readonly Scope[] = ['crm:read', 'crm:write', 'erp:read']

export interface AuthContext {
  orgId: string
  /** The signed-in person (a session, or the person who consented to a token). */
  userId: string | null
  role: 'admin' | 'member'
  scopes: ReadonlySet<Scope>
  via: 'session' | 'bearer'
  clientId?: string
}
