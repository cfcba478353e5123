/**
 * Browser end-to-end test of the foundation: on a fresh service, headless Chromium goes through
 * first run, signs out and in again, pages through 55 accounts with Next and Previous, edits an account
 * through its form and creates a contact through the UI, and the server never answers with a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { targets } from '../helpers/databases.ts'
import { ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

/** expect.poll with room for a loaded machine (two cores shared with other test files). */
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 })

const ADMIN = { org: 'Acme Outfitters', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' }

describe.each(await targets())('first run and records in the browser on %s', (target) => {
  let svc: E2eService
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let failures: ReturnType<typeof watchFailures>

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService(target), launchChromium()])
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    context.setDefaultTimeout(15_000)
    failures = watchFailures(context)
    page = await context.newPage()
    failures.watch(page)
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('walks a fresh install through first run, sign-out and sign-in', async () => {
    await page.goto(svc.url)
    await page.waitForURL(`${svc.url}/setup`)
    await page.getByLabel('Organization name', { exact: true }).fill(ADMIN.org)
    await page.getByLabel('Your name', { exact: true }).fill(ADMIN.name)
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByRole('button', { name: 'Create organization' }).click()
    await page.waitForURL(`${svc.url}/app`)
    await poll(() => page.getByRole('button', { name: 'User menu' }).textContent()).toContain(ADMIN.name)

    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Sign out' }).click()
    await page.waitForURL(/\/sign-in$/)
    // Signed out for real: the app sends the browser back to sign-in.
    await page.goto(`${svc.url}/app`)
    await page.waitForURL(/\/sign-in/)

    await signIn(page, svc.url, ADMIN.email, ADMIN.password)
    await page.getByRole('button', { name: 'User menu' }).waitFor()
  })

  it('lists 55 accounts as a page of 50 and a page of 5, with the exact count', async () => {
    const me = await page.request.get(`${svc.url}/api/v1/me`)
    expect(me.status()).toBe(200)
    const csrf = ((await me.json()) as { csrf_token: string }).csrf_token
    for (let i = 1; i <= 55; i++) {
      const res = await page.request.post(`${svc.url}/api/v1/accounts`, {
        data: { name: `Account ${String(i).padStart(2, '0')}`, industry: 'Retail' },
        headers: { 'x-csrf-token': csrf, origin: svc.url },
      })
      expect(res.status(), await res.text()).toBe(201)
    }

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click()
    await page.waitForURL(`${svc.url}/app/accounts`)
    // Only the loaded table: while loading, a skeleton table (aria-busy) has placeholder rows.
    const rows = page.locator('table:not([aria-busy]) tbody tr')
    await poll(() => rows.count()).toBe(50)
    // Newest first: the last created is on top.
    await poll(() => rows.first().textContent()).toContain('Account 55')
    // The real number, not "50+": GET /accounts/count with the same search and filters.
    await poll(() => page.getByLabel('Matching records').textContent()).toBe('55')
    await page.getByText('1–50 of 55').waitFor()
    await shot(page, 'accounts-list-count')
    await page.getByRole('button', { name: 'Next' }).click()
    await poll(() => rows.count()).toBe(5)
    await page.getByText('51–55 of 55').waitFor()
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Previous' }).click()
    await poll(() => rows.count()).toBe(50)
    await page.getByText('1–50 of 55').waitFor()
  })

  it('edits an account through its form and creates a contact through the UI', async () => {
    await page.getByRole('link', { name: 'Account 42', exact: true }).click()
    await page.waitForURL(/\/app\/accounts\/[^/]+$/)
    await page.getByRole('heading', { name: 'Account 42', level: 2 }).waitFor()

    await page.getByRole('link', { name: 'Edit' }).click()
    await page.waitForURL(/\/edit$/)
    const phone = page.getByLabel('Phone', { exact: true })
    await phone.fill('+1 555 0142')
    const name = page.getByLabel('Name', { exact: true })
    await name.fill('Account 42 (renamed)')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/accounts\/[^/]+$/)
    await page.getByRole('heading', { name: 'Account 42 (renamed)', level: 2 }).waitFor()
    // In the fields (the timeline shows the change too).
    await page.locator('dl').getByText('+1 555 0142').waitFor()

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    await page.waitForURL(`${svc.url}/app/contacts`)
    await page.getByRole('link', { name: 'New contact' }).first().click()
    await page.waitForURL(`${svc.url}/app/contacts/new`)
    await page.getByLabel('First name', { exact: true }).fill('Grace')
    await page.getByLabel('Last name', { exact: true }).fill('Hopper')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/contacts\/[^/]+$/)
    await page.getByRole('heading', { name: /Grace Hopper/, level: 2 }).waitFor()

    // The new contact is in the list.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    await page.getByRole('link', { name: /Grace Hopper/ }).waitFor()
  })

  it('shows the accounts of a contacts table from one batched request, not one request per account', async () => {
    const me = await page.request.get(`${svc.url}/api/v1/me`)
    const csrf = ((await me.json()) as { csrf_token: string }).csrf_token
    const accounts = ((await (await page.request.get(`${svc.url}/api/v1/accounts?limit=12&q=${encodeURIComponent('Account 0')}`)).json()) as { data: { id: string; name: string }[] }).data
    expect(accounts).toHaveLength(9)
    for (const [i, account] of accounts.entries()) {
      const res = await page.request.post(`${svc.url}/api/v1/contacts`, {
        data: { last_name: `Linked ${i}`, account_id: account.id },
        headers: { 'x-csrf-token': csrf, origin: svc.url },
      })
      expect(res.status(), await res.text()).toBe(201)
    }
    const accountRequests: string[] = []
    const count = (req: { url(): string }) => void (new URL(req.url()).pathname.startsWith('/api/v1/accounts') && accountRequests.push(req.url()))
    page.on('request', count)
    // A fresh load, so no account is in the query cache yet.
    await page.goto(`${svc.url}/app/contacts`)
    const table = page.locator('table:not([aria-busy])')
    for (const account of accounts) await table.getByRole('link', { name: account.name, exact: true }).waitFor()
    page.off('request', count)
    expect(accountRequests).toHaveLength(1)
    expect(new URL(accountRequests[0]!).searchParams.get('ids')!.split(',').sort()).toEqual(accounts.map((a) => a.id).sort())
    await shot(page, 'contacts-with-accounts')
  })

  it('saw no 5xx and no page errors', () => {
    expect(failures.serverErrors).toEqual([])
    expect(failures.pageErrors).toEqual([])
  })
})
