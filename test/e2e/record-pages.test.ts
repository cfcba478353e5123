/**
 * Browser end-to-end test of the record pages: an account's related records in tabs with exact
 * counts, a timeline newest first, "Add" opening the create form with the reference filled in; a
 * case opening on its comment thread, and its timeline merging comments and activities.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the pages there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { seedCrm, type SeededCrm } from './crm-seed.ts'
import { ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 })

describe('record pages in the browser', () => {
  let svc: E2eService
  let browser: Browser
  let page: Page
  let crm: SeededCrm
  let failures: ReturnType<typeof watchFailures>

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService('pglite'), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    context.setDefaultTimeout(15_000)
    failures = watchFailures(context)
    page = await context.newPage()
    failures.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    crm = await seedCrm(page, svc.url)
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) })
  const tabCount = (name: string) => tab(name).locator('.mantine-Badge-root').textContent()

  it("shows an account's related records in tabs with their counts, and its timeline newest first", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).click()
    await page.getByRole('link', { name: 'Northwind Traders', exact: true }).click()
    await page.waitForURL(`${svc.url}/app/accounts/${crm.account.id}`)
    await page.getByRole('heading', { name: 'Northwind Traders', level: 2 }).waitFor()
    await poll(() => tabCount('Contacts')).toBe('3')
    await poll(() => tabCount('Opportunities')).toBe('7')
    await poll(() => tabCount('Cases')).toBe('1')
    await poll(() => tabCount('Activities')).toBe('4')
    // No child accounts: that rare tab stays away until there is one.
    expect(await tab('Child accounts').count()).toBe(0)

    const timeline = page.getByRole('region', { name: 'Timeline' })
    expect(await tab('Timeline').getAttribute('aria-selected')).toBe('true')
    await timeline.getByRole('link', { name: 'Renewal kickoff call with Nancy' }).waitFor()
    const activities = await timeline.locator('[data-entry="activity"] a').allTextContents()
    expect(activities).toEqual(['Walkthrough of the scanner logs', 'Prepare pricing for negotiation', 'Sent EMEA rollout proposal', 'Renewal kickoff call with Nancy'])
    // Its changes from the event journal: the last write (phone and type) on top, its creation last.
    const entries = timeline.locator('[data-entry]')
    await poll(() => entries.first().getAttribute('data-entry')).toBe('event')
    const newest = entries.first()
    await expect(newest.textContent()).resolves.toContain('Changed 2 fields')
    await expect(newest.textContent()).resolves.toMatch(/Phone\+1 206 555 0100→\+1 206 555 0199/)
    await expect(newest.textContent()).resolves.toMatch(/TypeCustomer→Partner/)
    await expect(entries.last().textContent()).resolves.toContain('Created this account')
    await shot(page, 'account-page')

    await tab('Opportunities').click()
    await page.waitForURL(/\?tab=opportunities$/)
    const opportunities = page.getByRole('region', { name: 'Opportunities' })
    await poll(() => opportunities.locator('tbody tr').count()).toBe(7)
    await opportunities.getByText('7 opportunities').waitFor()
    await shot(page, 'account-opportunities')
    // The open tab is in the URL: a reload (or a shared link) opens it.
    await page.reload()
    await poll(() => tab('Opportunities').getAttribute('aria-selected')).toBe('true')
  })

  it('adds a contact from the account with the account already filled in', async () => {
    await tab('Contacts').click()
    const contacts = page.getByRole('region', { name: 'Contacts' })
    await poll(() => contacts.locator('tbody tr').count()).toBe(3)
    await contacts.getByRole('link', { name: 'Add contact' }).click()
    await page.waitForURL(`${svc.url}/app/contacts/new?account_id=${crm.account.id}`)
    await poll(() => page.getByLabel('Account', { exact: true }).inputValue()).toBe('Northwind Traders')
    await page.getByLabel('First name', { exact: true }).fill('Margaret')
    await page.getByLabel('Last name', { exact: true }).fill('Peacock')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/contacts\/[^/?]+$/)
    const id = page.url().split('/').pop()!
    const contact = (await (await page.request.get(`${svc.url}/api/v1/contacts/${id}`)).json()) as { account_id: string }
    expect(contact.account_id).toBe(crm.account.id)
    // The contact's own page: its account in the details, its cases and activities in tabs.
    await page.getByRole('link', { name: 'Northwind Traders' }).first().waitFor()
    await poll(() => tabCount('Cases')).toBe('0')
    await shot(page, 'contact-page')

    await page.getByRole('link', { name: 'Northwind Traders' }).first().click()
    await page.waitForURL(`${svc.url}/app/accounts/${crm.account.id}`)
    await poll(() => tabCount('Contacts')).toBe('4')
  })

  it('opens a case on its comment thread, and merges comments and activities in its timeline', async () => {
    await page.goto(`${svc.url}/app/cases/${crm.caseId}`)
    await page.getByRole('heading', { name: /Scanner sync fails/, level: 2 }).waitFor()
    expect(await tab('Comments').getAttribute('aria-selected')).toBe('true')
    await poll(() => tabCount('Comments')).toBe('2')
    await poll(() => tabCount('Activities')).toBe('1')
    await page.getByLabel('Add a comment').fill('Customer confirmed the fix on all devices.')
    await page.getByRole('button', { name: 'Add comment' }).click()
    await page.getByText('Customer confirmed the fix on all devices.').waitFor()
    await poll(() => tabCount('Comments')).toBe('3')
    await shot(page, 'case-page')

    await tab('Timeline').click()
    const timeline = page.getByRole('region', { name: 'Timeline' })
    await timeline.getByText('Customer confirmed the fix on all devices.').waitFor()
    // Newest first: the new comment, the activity logged after the first two comments, then those.
    await poll(() => timeline.locator('[data-entry]').evaluateAll((els) => els.map((e) => e.getAttribute('data-entry')).filter((t) => t !== 'event'))).toEqual([
      'comment',
      'activity',
      'comment',
      'comment',
    ])
    await shot(page, 'case-timeline')
  })

  it("tells an opportunity's stage move once in its timeline", async () => {
    const deal = crm.opportunities.find((o) => o.stage === 'qualification')!
    await page.goto(`${svc.url}/app/opportunities/${deal.id}`)
    await page.getByRole('heading', { name: deal.name, level: 2 }).waitFor()
    await page.getByRole('radiogroup', { name: 'Stage' }).getByText('Proposal').click()
    const timeline = page.getByRole('region', { name: 'Timeline' })
    await timeline.getByText('Moved the stage').waitFor()
    // The update and the stage_changed event of one PATCH read as one entry, above the creation.
    await poll(() => timeline.locator('[data-entry] .mantine-Timeline-itemTitle').allTextContents()).toEqual(['Moved the stage', 'Created this opportunity'])
    await expect(timeline.locator('[data-entry]').first().textContent()).resolves.toMatch(/StageQualification→Proposal/)
    await shot(page, 'opportunity-timeline')
  })

  it('saw no 5xx and no page errors', () => {
    expect(failures.serverErrors).toEqual([])
    expect(failures.pageErrors).toEqual([])
  })
})
