/**
 * The invitation link (`GET /invite/<token>`) and its form (`POST`): server-rendered like sign-in,
 * outside /api/v1. The person joins as the invited address: a new person creates that account, an
 * existing one signs in to it (throttled like sign-in), and whoever is already signed in as it
 * just confirms. Success signs them in to the organization and opens the app.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ProblemError } from '../shared/errors.ts'
import { verifyPassword } from '../shared/passwords.ts'
import { page, findUserByEmail, findUserById, sameOrigin, sendPage, setSessionCookie, createSession, deleteSession, findSession, SESSION_COOKIE, switchSessionOrganization, clearSignInFailures, recordSignInFailure, signInRetryAfter } from '../orgs/index.ts'
import { INVITATION_PATH, parseInvitationToken, secretMatches } from './invitation-link.ts'
import { gonePage, invalidLinkPage, joinPage, type JoinMode } from './invitation-pages.ts'
import { findInvitationOfLink, type LinkedInvitation } from './invitation.repository.ts'
import { EmailTaken, InvitationGone, joinAsExistingPerson, joinAsNewPerson } from './join.service.ts'

const FIELD_NAMES: Record<string, string> = { name: 'Your name', password: 'The password', email: 'The email' }

/** A refused form in the page's words: "The password must be 8 to 256 characters." */
function formProblem(err: ProblemError): string {
  const parts = (err.errors ?? []).map((e) => `${FIELD_NAMES[e.field] ?? e.field} ${e.message}.`)
  return parts.length ? parts.join(' ') : err.message
}

export async function invitationPageRoutes(app: FastifyInstance): Promise<void> {
  const hide = { schema: { hide: true } }

  /** The invitation the link names, if its secret is right; otherwise the page that says why not, already sent. */
  async function openInvitation(request: FastifyRequest, reply: FastifyReply): Promise<LinkedInvitation | null> {
    const token = parseInvitationToken(String((request.params as { token?: unknown }).token ?? ''))
    const invitation = token ? await findInvitationOfLink(app.db, token.id) : undefined
    if (!token || !invitation || !secretMatches(invitation.token_hash, token.secret)) {
      await sendPage(reply, 404, invalidLinkPage())
      return null
    }
    if (invitation.state !== 'pending') {
      await sendPage(reply, 410, gonePage(invitation, invitation.state))
      return null
    }
    return invitation
  }

  /** Who is at the link: the session's person (if any) and how they can join. */
  async function visitor(request: FastifyRequest, invitation: LinkedInvitation) {
    const token = request.cookies[SESSION_COOKIE]
    const session = token ? await findSession(app.db, token) : null
    const account = await findUserByEmail(app.db, invitation.email)
    const signedIn = session ? await findUserById(app.db, session.userId) : undefined
    const mode: JoinMode = !account ? 'new' : signedIn?.id === account.id ? 'signed_in' : 'existing'
    return { token, account, mode, signedInAs: signedIn && signedIn.id !== account?.id ? signedIn.email : null }
  }

  app.get(`${INVITATION_PATH}/:token`, hide, async (request, reply) => {
    const invitation = await openInvitation(request, reply)
    if (!invitation) return reply
    const { mode, signedInAs } = await visitor(request, invitation)
    return sendPage(reply, 200, joinPage(invitation, mode, { action: request.url, signedInAs }))
  })

  app.post(`${INVITATION_PATH}/:token`, hide, async (request, reply) => {
    if (!sameOrigin(request)) return sendPage(reply, 403, page('Forbidden', '<h1>Forbidden</h1><p class="lead">This form must be sent from Cairn itself.</p>'))
    const invitation = await openInvitation(request, reply)
    if (!invitation) return reply
    const { token, account, mode, signedInAs } = await visitor(request, invitation)
    const body = (request.body ?? {}) as Record<string, unknown>
    const name = String(body.name ?? '').slice(0, 300)
    const password = String(body.password ?? '').slice(0, 300)
    const again = (status: number, error: string) => sendPage(reply, status, joinPage(invitation, mode, { action: request.url, error, name, signedInAs }))

    try {
      if (mode === 'signed_in') {
        const { orgId } = await joinAsExistingPerson(app.db, invitation, account!.id)
        await switchSessionOrganization(app.db, token!, orgId)
        return reply.redirect('/app', 303)
      }
      let userId: string
      let orgId: string
      if (mode === 'existing') {
        const wait = await signInRetryAfter(app.db, invitation.email, request.ip)
        if (wait > 0) {
          reply.header('retry-after', String(wait))
          return again(429, `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`)
        }
        if (!(await verifyPassword(password, account!.password_hash))) {
          await recordSignInFailure(app.db, invitation.email, request.ip)
          return again(401, 'That password does not match this account.')
        }
        await clearSignInFailures(app.db, invitation.email)
        userId = account!.id
        ;({ orgId } = await joinAsExistingPerson(app.db, invitation, userId))
      } else {
        ;({ userId, orgId } = await joinAsNewPerson(app.db, invitation, { name, password }))
      }
      // Someone else was signed in in this browser: their session ends with the switch of cookie.
      if (token) await deleteSession(app.db, token)
      setSessionCookie(request, reply, await createSession(app.db, userId, orgId, app.config.sessionTtlSeconds))
      return reply.redirect('/app', 303)
    } catch (err) {
      if (err instanceof InvitationGone) {
        const now = await findInvitationOfLink(app.db, invitation.id)
        return sendPage(reply, 410, gonePage(invitation, now && now.state !== 'pending' ? now.state : 'accepted'))
      }
      if (err instanceof EmailTaken) return sendPage(reply, 409, joinPage(invitation, 'existing', { action: request.url, error: 'An account with this email was just created. Sign in with its password to join.' }))
      if (err instanceof ProblemError && err.status < 500) return again(400, formProblem(err))
      throw err
    }
  })
}
