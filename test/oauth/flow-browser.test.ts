/**
 * The OAuth flow as a person sees it: a third-party app (oauth4webapi) sends a real browser to the
 * authorize endpoint; the person signs in on the sign-in page, reads the consent page and presses
 * Allow; the browser lands on the app's callback with code, state and iss; the app exchanges it.
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as oauth from 'oauth4webapi'
import type { Browser } from 'playwright-core'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import { freePort, startLiveService, type LiveService } from '../helpers/live-service.ts'
import { launchBrowser } from '../helpers/browser.ts'
import { createOrganizationWithAdmin, addUserToOrganization } from '../../src/orgs/org.service.ts'
import { createOrgClient } from '../../src/oauth/index.ts'

const insecure = { [oauth.allowInsecureRequests]: true }

describe.each(await targets())('OAuth in a real browser on %s', (target) => {
  let tdb: TestDatabase
  let svc: LiveService
  let browser: Browser
  let callbackServer: http.Server
  let redirectUri: string
  beforeAll(async () => {
    tdb = await createTestDatabase(target)
    svc = await startLiveService(tdb.database)
    browser = await launchBrowser()
    const port = await freePort()
    redirectUri = `http://127.0.0.1:${port}/callback`
    // The third-party app's callback: a real HTTP server on loopback.
    callbackServer = http.createServer((_req, res) => res.end('<html><body>Connected</body></html>'))
    await new Promise<void>((r) => callbackServer.listen(port, '127.0.0.1', r))
  })
  afterAll(async () => {
    await browser?.close()
    callbackServer?.close()
    await svc?.close()
    await tdb?.drop()
  })

  it('signs in, consents (choosing the organization) and returns a code the app exchanges', async () => {
    const a = await createOrganizationWithAdmin(svc.app.db, { name: 'Alpha Works', adminEmail: 'grace@example.test', adminPassword: 'password123' })
    const b = await createOrganizationWithAdmin(svc.app.db, { name: 'Beta Labs', adminEmail: 'other@example.test', adminPassword: 'password123' })
    await addUserToOrganization(svc.app.db, b.orgId, { email: 'grace@example.test', password: 'password123', role: 'member' })
    // A client created by Beta's admin; Grace belongs to both, so she picks the organization.
    const client = await createOrgClient(svc.app.db, b.orgId, { name: 'Beta Reporting', redirectUris: [redirectUri.replace(/:\d+/, '')], scopes: ['crm:read', 'erp:read'] }, 'settings')
    const issuer = new URL(svc.url)
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }))
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: redirectUri, // registered without a port: loopback port variance (RFC 8252 §7.3)
      scope: 'crm:read erp:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString()

    const page = await browser.newPage()
    await page.goto(url.href)
    expect(page.url()).toContain('/sign-in')
    await page.getByLabel('Email').fill('grace@example.test')
    await page.getByLabel('Password').fill('password123')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/oauth\/authorize/)
    await expect(page.getByRole('heading', { level: 1 })).toBeTruthy()
    const text = await page.locator('body').innerText()
    expect(text).toContain('Allow Beta Reporting to access your CRM?')
    expect(text).toContain('Read your CRM records')
    expect(text).toContain('Read the product catalog and opportunity amounts')
    expect(text).toContain('Beta Labs') // only the client's organization is offered
    expect(text).not.toContain('Alpha Works')
    await page.screenshot({ path: '/tmp/consent.png' }).catch(() => {})
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL((u) => u.href.startsWith(redirectUri))
    const callback = new URL(page.url())
    await page.close()

    const params = oauth.validateAuthResponse(as, { client_id: client.client_id }, callback, state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: client.client_id },
      await oauth.authorizationCodeGrantRequest(as, { client_id: client.client_id }, oauth.ClientSecretBasic(client.client_secret), params, redirectUri, verifier, insecure),
    )
    const me = await (await fetch(`${svc.url}/api/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json()
    expect(me.organization.id).toBe(b.orgId)
    expect(me.role).toBe('member')
    expect(a.orgId).not.toBe(b.orgId)
  })
})
