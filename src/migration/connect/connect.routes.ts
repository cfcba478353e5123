/**
 * Where the source platform's consent page sends the browser back: GET /migration/oauth/callback.
 * Outside /api (a browser navigation with the session cookie, not an API call). The state must be
 * one this service issued to the same signed-in person; the code is redeemed with its PKCE
 * verifier, the migration created and its analysis started, and the browser lands on the wizard.
 * Refusals and errors land on the wizard too, with the reason in words.
 */
import type { FastifyInstance } from 'fastify'
import { findSession, SESSION_COOKIE } from '../../orgs/index.ts'
import { ALL_SCOPES } from '../../shared/auth-context.ts'
import { startAnalysis } from '../migration.service.ts'
import { exchangeCode } from '../source/source-connection.ts'
import { CONNECT_CALLBACK_PATH, loginUrlOf, takeConnectState } from './connect.service.ts'

const WIZARD = '/app/migration'

export async function connectCallbackRoutes(app: FastifyInstance, opts: { wake(): void; now(): Date }): Promise<void> {
  app.get(CONNECT_CALLBACK_PATH, { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    // No route schema: every refusal lands on the wizard with the reason, not on a JSON problem.
    const q = request.query as Record<string, string | undefined>
    const back = (message: string) => reply.redirect(`${WIZARD}?connect_error=${encodeURIComponent(message)}`, 303)
    const token = request.cookies[SESSION_COOKIE]
    const session = token ? await findSession(app.db, token) : null
    if (!session) return reply.redirect(`/sign-in?return_to=${encodeURIComponent(WIZARD)}`, 303)
    const state = typeof q.state === 'string' ? await takeConnectState(app, q.state, opts.now()) : null
    if (!state || state.userId !== session.userId || state.orgId !== session.orgId) {
      return back('The connection attempt is unknown or expired (or was started by someone else). Start it again.')
    }
    if (q.error) return back(`The source platform did not grant access: ${q.error_description ?? q.error}.`)
    if (!q.code) return back('The source platform sent no authorization code.')
    let tokens
    try {
      tokens = await exchangeCode({
        loginUrl: loginUrlOf(app, state.environment),
        clientId: app.config.sourceClientId!,
        clientSecret: app.config.sourceClientSecret!,
        redirectUri: `${app.config.publicUrl}${CONNECT_CALLBACK_PATH}`,
        code: q.code,
        codeVerifier: state.verifier,
        allowPrivate: app.config.allowPrivateOutbound,
      })
    } catch (err) {
      request.log.warn({ err: { message: (err as Error).message } }, 'source platform code exchange failed')
      return back(`The source platform refused the connection: ${(err as Error).message}`)
    }
    const auth = { orgId: session.orgId, userId: session.userId, role: session.role, scopes: new Set(ALL_SCOPES), via: 'session' as const }
    if (auth.role !== 'admin') return back('Only administrators can start a migration.')
    const id = await startAnalysis(
      app.db,
      app.secretBox,
      auth,
      { instanceUrl: tokens.instanceUrl, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, environment: state.environment, loginUrl: loginUrlOf(app, state.environment), sourceOrgId: tokens.orgId },
      opts.now(),
    )
    opts.wake()
    return reply.redirect(`${WIZARD}/${id}`, 303)
  })
}
