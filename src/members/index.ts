/**
 * Members: who belongs to an organization once it exists. The members API (list, change a role,
 * remove; never the last administrator), invitations by email with a single-use link, the page at
 * that link, and the invitation email (docs/members.md).
 */
export { memberRoutes } from './members.routes.ts'
export { invitationRoutes } from './invitations.routes.ts'
export { invitationPageRoutes } from './invitation-pages.routes.ts'
export { withoutInvitationSecret } from './invitation-link.ts'
