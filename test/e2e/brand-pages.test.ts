/**
 * One brand across the server-rendered pages and the app: first run, sign-in, the OAuth consent and
 * an authorization error show the same mark, wordmark, type and primary colour as the app's header
 * and buttons (src/shared/brand.ts feeds both). Screenshots of each with E2E_SCREENSHOTS.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { targets } from '../helpers/databases.ts'
import { apiPost, browserPerFile, completeFirstRun, shot } from './harness.ts'
import { createOrgClient } from '../../src/oauth/index.ts'

const TEAL_6 = 'rgb(18, 184, 134)'

/** What makes the brand, as the browser computed it. */
async function brandOf(page: Page, markSelector: string, buttonName: string) {
  const mark = page.locator(markSelector).first()
  const button = page.getByRole('button', { name: buttonName, exact: true }).first()
  return {
    markSvg: await mark.evaluate((el) => el.outerHTML),
    wordmark: (await mark.evaluate((el) => el.closest('a, .brand')?.textContent ?? '')).trim(),
    bodyFont: await page.evaluate(() => getComputedStyle(document.body).fontFamily),
    buttonColor: await button.evaluate((el) => getComputedStyle(el).backgroundColor),
  }
}

// Looks do not depend on the database: one target is enough.
describe.each((await targets()).slice(0, 1))('one brand on the pages and in the app (%s)', (target) => {
  const world = browserPerFile(target)

  it('shows the same mark, wordmark, type and primary colour everywhere', async () => {
    const { svc, page } = world
    await page.goto(`${svc.url}/setup`)
    const setup = await brandOf(page, '.brand svg', 'Create organization')
    await shot(page, 'brand-setup')
    await completeFirstRun(page, svc.url, { org: 'Lovelace Engines', name: 'Ada Admin', email: 'ada@engines.test', password: 'correct horse battery' })
    expect((await apiPost(page, svc.url, '/accounts', { name: 'Acme Corporation' })).status).toBe(201)
    await page.goto(`${svc.url}/app/accounts`)
    const app = await brandOf(page, 'header a[aria-label="Cairn home"] svg', 'Search records')
    await shot(page, 'brand-app')
    const appButtonColor = await page.getByRole('link', { name: 'New account' }).first().evaluate((el) => getComputedStyle(el).backgroundColor)

    // The consent page, reached as a third-party application would send the person there.
    const me = (await (await page.request.get(`${svc.url}/api/v1/me`)).json()) as { organization: { id: string } }
    const client = await createOrgClient(svc.service.app.db, me.organization.id, { name: 'Ledger Sync', redirectUris: ['https://ledger.example/callback'], scopes: ['crm:read', 'erp:read'] }, 'settings')
    const authorize = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: 'https://ledger.example/callback', scope: 'crm:read erp:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })
    await page.goto(`${svc.url}/oauth/authorize?${authorize}`)
    await page.getByRole('heading', { name: 'Allow Ledger Sync to access your CRM?' }).waitFor()
    const consent = await brandOf(page, '.brand svg', 'Allow')
    await shot(page, 'brand-consent')
    await page.goto(`${svc.url}/oauth/authorize?client_id=unknown`)
    await page.getByRole('heading', { name: 'This authorization request cannot continue' }).waitFor()
    await shot(page, 'brand-error')

    await page.goto(`${svc.url}/app`)
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL(/\/sign-in$/)
    const signIn = await brandOf(page, '.brand svg', 'Sign in')
    await shot(page, 'brand-sign-in')

    for (const [name, pageBrand] of Object.entries({ setup, consent, signIn })) {
      expect(pageBrand.markSvg, name).toBe(app.markSvg)
      expect(pageBrand.wordmark, name).toBe('Cairn')
      expect(pageBrand.bodyFont, name).toBe(app.bodyFont)
      expect(pageBrand.buttonColor, name).toBe(TEAL_6)
    }
    expect(app.wordmark).toBe('Cairn')
    expect(appButtonColor).toBe(TEAL_6)
    expect(world.failures.serverErrors).toEqual([])
    expect(world.failures.pageErrors).toEqual([])
  })
})
