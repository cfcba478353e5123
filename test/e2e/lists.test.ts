/**
 * Browser end-to-end test of the list pages: sorting by a column header, a range filter, the exact
 * count, the whole view in the URL (a link opened elsewhere shows the same view; Back undoes a
 * change), and keyset paging with Next and Previous on a sorted list.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the list there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { seedCrm } from './crm-seed.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 })

describe('list pages in the browser', () => {
  let svc: E2eService
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let failures: ReturnType<typeof watchFailures>

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService('pglite'), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    context.setDefaultTimeout(15_000)
    failures = watchFailures(context)
    page = await context.newPage()
    failures.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await seedCrm(page, svc.url)
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  const rows = () => page.locator('table:not([aria-busy]) tbody tr')
  const firstCells = () => rows().locator('td:first-child').allTextContents()
  const header = (name: string) => page.getByRole('columnheader', { name })
  const count = () => page.getByLabel('Matching records').textContent()

  it('sorts by a column header, ascending then descending, only on sortable columns', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Opportunities' }).click()
    await page.waitForURL(`${svc.url}/app/opportunities`)
    await poll(() => rows().count()).toBe(7)
    await poll(count).toBe('7')
    // Account is a reference: not sortable, so a plain header.
    expect(await header('Account').getByRole('button').count()).toBe(0)

    await header('Amount').getByRole('button').click()
    await page.waitForURL(/\?sort=amount$/)
    await poll(() => header('Amount').getAttribute('aria-sort')).toBe('ascending')
    await poll(firstCells).toEqual(['Analytics pilot', 'Support add-on', 'Data migration services', 'Warehouse scanners', 'Legacy ERP bridge', 'Northwind renewal 2027', 'Northwind EMEA rollout'])
    await header('Amount').getByRole('button').click()
    await page.waitForURL(/\?sort=-amount$/)
    await poll(() => header('Amount').getAttribute('aria-sort')).toBe('descending')
    await poll(async () => (await firstCells())[0]).toBe('Northwind EMEA rollout')
  })

  it('filters by a range with the exact count, in a URL that shares the view, and Back undoes it', async () => {
    await page.getByRole('button', { name: 'Filters', exact: true }).click()
    await page.getByLabel('Amount from').fill('20000')
    await page.getByLabel('Close date to').fill('2026-12-31')
    await page.getByRole('button', { name: 'Apply' }).click()
    // Amount >= 20,000 closing this year: the renewal and the lost ERP bridge, by amount descending.
    await poll(count).toBe('2')
    await poll(firstCells).toEqual(['Northwind renewal 2027', 'Legacy ERP bridge'])
    const url = new URL(page.url())
    expect(url.searchParams.get('sort')).toBe('-amount')
    expect(url.searchParams.get('amount[gte]')).toBe('20000')
    expect(url.searchParams.get('close_date[lte]')).toBe('2026-12-31')
    await page.getByText('Amount ≥').waitFor()
    await shot(page, 'opportunities-sorted-filtered')

    // The link is the view: another tab opened on it shows the same rows, order and count.
    const other = await context.newPage()
    await other.goto(url.toString())
    await poll(() => other.getByLabel('Matching records').textContent()).toBe('2')
    await poll(() => other.getByRole('columnheader', { name: 'Amount' }).getAttribute('aria-sort')).toBe('descending')
    await poll(() => other.locator('table:not([aria-busy]) tbody tr td:first-child').allTextContents()).toEqual(await firstCells())
    await other.close()

    // Back returns to the view before the filter.
    await page.goBack()
    await poll(count).toBe('7')
    expect(new URL(page.url()).searchParams.get('amount[gte]')).toBeNull()
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-amount')
  })

  it('pages a sorted list with Next and Previous, and Back returns to the previous page', async () => {
    for (let i = 0; i < 55; i++) {
      const res = await apiPost(page, svc.url, '/contacts', { first_name: 'Test', last_name: `Zulu ${String(i).padStart(2, '0')}` })
      expect(res.status).toBe(201)
    }
    await page.goto(`${svc.url}/app/contacts?sort=last_name`)
    await poll(count).toBe('58')
    await poll(() => rows().count()).toBe(50)
    await page.getByText('1–50 of 58').waitFor()
    expect((await firstCells())[0]).toBe('Nancy Davolio')
    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByText('51–58 of 58').waitFor()
    await poll(() => rows().count()).toBe(8)
    expect(await firstCells()).toEqual(['Zulu 47', 'Zulu 48', 'Zulu 49', 'Zulu 50', 'Zulu 51', 'Zulu 52', 'Zulu 53', 'Zulu 54'].map((n) => `Test ${n}`))
    expect(new URL(page.url()).searchParams.get('cursor')).toMatch(/^[0-9a-f-]{36}$/)
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)

    await page.getByRole('button', { name: 'Previous' }).click()
    await page.getByText('1–50 of 58').waitFor()
    expect((await firstCells())[0]).toBe('Nancy Davolio')
    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByText('51–58 of 58').waitFor()
    await page.goBack()
    await page.getByText('1–50 of 58').waitFor()
    expect(new URL(page.url()).searchParams.get('cursor')).toBeNull()
  })

  it('offers the first page when a linked page no longer exists', async () => {
    // A sorted list's cursor that no record or tombstone explains: the API answers invalid_cursor.
    await page.goto(`${svc.url}/app/opportunities?sort=name&cursor=0190d6f0-0000-7000-8000-000000000000`)
    const alert = page.getByRole('alert').filter({ hasText: 'This page of the list is no longer available' })
    await alert.waitFor()
    await alert.getByRole('button', { name: 'Go to the first page' }).click()
    await poll(() => rows().count()).toBe(7)
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name')
    expect(new URL(page.url()).searchParams.get('cursor')).toBeNull()
  })

  it('saw no 5xx and no page errors', () => {
    expect(failures.serverErrors).toEqual([])
    expect(failures.pageErrors).toEqual([])
  })
})
