/**
 * Who may call the members and invitations API (docs/members.md, Who may do what): reading the
 * member list is reading CRM data (owners of records), so a token with crm:read may; changing who
 * has access is done by an administrator in the app, never with a token, as for API clients.
 */
import { requireScopes } from '../http/auth.ts'
import { adminOnly, inTheAppOnly } from '../http/roles.ts'

export const readMembers = [requireScopes('crm:read')]
export const manageMembers = [adminOnly, inTheAppOnly('Members and invitations', 'Settings -> Members')]
