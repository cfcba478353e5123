/**
 * Browser end-to-end test of Data -> Event log: an empty log explains itself; changes made through
 * the API appear newest first (also while the page is open), a type filter narrows them and lives
 * in the URL, a row opens its payload, and the record links lead to the record.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the page's states there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe('Data -> Event log in the browser', () => {
  let svc: E2eService
  let browser: Browser

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService('pglite'), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('shows changes newest first, filters by type and opens a payload', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.getByRole('group', { name: 'Data' }).getByRole('link', { name: 'Event log' }).click()
    await page.waitForURL(`${svc.url}/app/events`)
    await page.getByText('No events yet').waitFor()
    await shot(page, 'event-log-empty')

    const account = (await apiPost(page, svc.url, '/accounts', { name: 'Globex' })).json
    const opp = (await apiPost(page, svc.url, '/opportunities', { name: 'Globex renewal', stage: 'prospecting', account_id: account.id, amount: '48000.00' })).json
    const me = await page.request.get(`${svc.url}/api/v1/me`)
    const csrf = ((await me.json()) as { csrf_token: string }).csrf_token
    const patched = await page.request.patch(`${svc.url}/api/v1/opportunities/${opp.id}`, { data: { stage: 'negotiation' }, headers: { 'x-csrf-token': csrf, origin: svc.url } })
    expect(patched.status()).toBe(200)
    await apiPost(page, svc.url, '/contacts', { first_name: 'Hank', last_name: 'Scorpio', account_id: account.id })

    // The open page refreshes itself: the newest event comes first.
    const rows = page.getByRole('table', { name: 'Events' }).getByRole('row')
    await expect.poll(async () => rows.count(), { timeout: 15_000 }).toBe(6) // header + 5 events
    const texts = await rows.allInnerTexts()
    expect(texts[1]).toContain('Contact')
    expect(texts[1]).toContain('Hank Scorpio')
    expect(texts[2].toLowerCase()).toContain('stage changed')
    expect(texts[2]).toContain('Stage')
    expect(texts[5]).toContain('Globex')
    await shot(page, 'event-log')

    await page.getByRole('button', { name: 'Show payload' }).nth(1).click()
    await expect.poll(async () => page.getByLabel('Payload of event 4').innerText()).toContain('"previous"')
    await shot(page, 'event-log-payload')

    await page.getByPlaceholder('All event types').click()
    await page.getByRole('option', { name: 'opportunity.stage_changed' }).click()
    await page.waitForURL(/types=opportunity\.stage_changed/)
    await page.keyboard.press('Escape')
    await expect.poll(async () => rows.count()).toBe(2)
    expect(await rows.nth(1).innerText()).toContain('Globex renewal')
    await shot(page, 'event-log-filtered')

    await rows.nth(1).getByRole('link', { name: 'Globex renewal' }).click()
    await page.waitForURL(`${svc.url}/app/opportunities/${opp.id}`)
    expect([...watch.serverErrors, ...watch.pageErrors]).toEqual([])
    await context.close()
  })
})
