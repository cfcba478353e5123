/**
 * Browser end-to-end test of Settings -> API: an administrator creates an OAuth client through the
 * modal (a bad redirect URI is refused under its field first), sees the secret exactly once,
 * revokes the client with confirmation; a client's "Last used" is Never until a request uses one of
 * its tokens, then that request's time (to the minute); a member sees no Settings entry and a
 * not-allowed page.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the page's states there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { addUserToOrganization, createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { ensureWebBuild, launchChromium, pagesOf, shot, signIn, startE2eService, type E2eService } from './harness.ts'
import { addMember } from '../helpers/build-app.ts'
import { confidentialClient, obtainTokens } from '../oauth/helpers.ts'

const PASSWORD = 'correct horse battery'

describe('Settings -> API in the browser', () => {
  let svc: E2eService
  let browser: Browser
  let orgId: string
  const { newPage, serverErrors, pageErrors } = pagesOf(() => browser)

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService('pglite'), launchChromium()])
    const db = svc.service.app!.db
    ;({ orgId } = await createOrganizationWithAdmin(db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' }))
    await addUserToOrganization(db, orgId, { email: 'max@acme.test', password: PASSWORD, role: 'member', name: 'Max Member' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('lets an administrator create a client, shows its secret once, and revoke it', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.getByRole('group', { name: 'Settings' }).getByRole('link', { name: 'API' }).click()
    await page.waitForURL(`${svc.url}/app/settings/api`)
    await page.getByRole('heading', { name: 'API', level: 2 }).waitFor()
    await page.getByText('No API clients yet').waitFor()
    await page.getByText(`${new URL(svc.url).origin}/.well-known/oauth-authorization-server`).waitFor()
    await shot(page, 'settings-api-empty')

    await page.getByRole('button', { name: 'Create client' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Name', { exact: true }).fill('Support dashboard')
    await dialog.getByLabel('Redirect URI 1', { exact: true }).fill('http://dashboard.example.com/callback')
    await dialog.getByRole('button', { name: 'Add redirect URI' }).click()
    await dialog.getByLabel('Redirect URI 2', { exact: true }).fill('http://127.0.0.1:8765/callback')
    await dialog.getByRole('checkbox', { name: /^crm:write/ }).click()
    await shot(page, 'settings-api-create-form')
    await dialog.getByRole('button', { name: 'Create client' }).click()
    // The server refuses plain http off loopback; the message lands under that row.
    await dialog.getByText(/must use https/i).waitFor()
    await shot(page, 'settings-api-create-error')
    await dialog.getByLabel('Redirect URI 1', { exact: true }).fill('https://dashboard.example.com/callback')
    await dialog.getByRole('button', { name: 'Create client' }).click()

    await dialog.getByText('Client created').waitFor()
    await dialog.getByText('This is the only time the client secret is shown', { exact: false }).waitFor()
    const clientId = (await dialog.getByLabel('Client ID', { exact: true }).textContent())!.trim()
    const secret = (await dialog.getByLabel('Client secret', { exact: true }).textContent())!.trim()
    expect(clientId).toMatch(/^crm_/)
    expect(secret).toMatch(/^crm_cs_/)
    await dialog.getByRole('button', { name: 'Copy client secret' }).waitFor()
    await shot(page, 'settings-api-secret-shown')
    await dialog.getByRole('button', { name: 'I have copied the secret' }).click()
    await dialog.waitFor({ state: 'detached' })

    const row = page.locator(`tr[data-client-id="${clientId}"]`)
    await row.getByText('Support dashboard').waitFor()
    await row.getByText(clientId).waitFor()
    await row.getByText('crm:read').waitFor()
    await row.getByText('crm:write').waitFor()
    await row.getByText('Settings', { exact: true }).waitFor()
    await row.getByText('Never').waitFor()
    await row.getByText('Active').waitFor()
    expect(await page.content()).not.toContain(secret)
    await page.reload()
    await row.getByText('Support dashboard').waitFor()
    expect(await page.content()).not.toContain(secret)
    expect(await page.getByText(/crm_cs_/).count()).toBe(0)

    // A second client through the API, for the list's look with several rows.
    const me = await (await page.request.get(`${svc.url}/api/v1/me`)).json()
    const second = await page.request.post(`${svc.url}/api/v1/settings/api-clients`, {
      data: { name: 'Nightly ERP sync', redirect_uris: ['https://erp.example.com/oauth/callback'], scopes: ['crm:read', 'erp:read'] },
      headers: { 'x-csrf-token': me.csrf_token, origin: svc.url },
    })
    expect(second.status()).toBe(201)
    await page.reload()
    await page.getByText('Nightly ERP sync').waitFor()
    await shot(page, 'settings-api-with-clients')

    await row.getByRole('button', { name: 'Revoke Support dashboard' }).click()
    const confirm = page.getByRole('dialog', { name: 'Revoke Support dashboard?' })
    await confirm.getByText('cannot be undone', { exact: false }).waitFor()
    await confirm.getByRole('button', { name: 'Revoke client' }).click()
    await confirm.waitFor({ state: 'detached' })
    await row.getByText('Revoked', { exact: true }).waitFor()
    expect(await row.getByRole('button', { name: /Revoke/ }).count()).toBe(0)
    await shot(page, 'settings-api-revoked')
    await page.reload()
    await row.getByText('Revoked', { exact: true }).waitFor()
    await page.close()
  })

  it("shows when a client's token was last used on a request, to the minute, and Never before", async () => {
    const app = svc.service.app!
    const client = await confidentialClient(app, orgId, { name: 'Warehouse sync' })
    // An integration obtains a token (through consent and the token endpoint): not a use yet.
    const integrator = await addMember(app, orgId, 'admin')
    const tokens = await obtainTokens(app, integrator, client, { resource: svc.url })
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.goto(`${svc.url}/app/settings/api`)
    const row = page.locator(`tr[data-client-id="${client.client_id}"]`)
    await row.getByText('Warehouse sync').waitFor()
    await row.getByText('Never', { exact: true }).waitFor()

    const before = Date.now()
    const used = await fetch(`${svc.url}/api/v1/accounts`, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(used.status).toBe(200)
    await app.clientUses.settled()
    const listed = await (await page.request.get(`${svc.url}/api/v1/settings/api-clients`)).json()
    const lastUsed = listed.data.find((c: { client_id: string }) => c.client_id === client.client_id).last_used_at
    expect(Date.parse(lastUsed)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(lastUsed)).toBeLessThanOrEqual(Date.now())

    await page.reload()
    await row.getByText('just now', { exact: true }).waitFor()
    expect(await row.getByText('Never', { exact: true }).count()).toBe(0)
    await row.getByText('just now', { exact: true }).hover()
    await page.getByRole('tooltip').getByText('recorded to the minute', { exact: false }).waitFor()
    await shot(page, 'settings-api-last-used')
    await page.close()
  })

  it('shows a member no Settings entry and a not-allowed page', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'max@acme.test', PASSWORD)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).waitFor()
    expect(await page.getByRole('group', { name: 'Settings' }).count()).toBe(0)
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API' }).count()).toBe(0)
    await page.goto(`${svc.url}/app/settings/api`)
    await page.getByText('Only administrators can manage API clients').waitFor()
    expect(await page.getByRole('button', { name: 'Create client' }).count()).toBe(0)
    await shot(page, 'settings-api-member')
    await page.close()
  })

  it('saw no 5xx and no page errors', () => {
    expect(serverErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
