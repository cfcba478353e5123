/**
 * Browser end-to-end test of the Reports page: the four charts drawn from live data (the pipeline
 * by stage and owner with amounts, won and lost, cases by week and priority, activities per owner),
 * the owner filter narrowing every chart, a period with nothing in it saying so; and the import
 * dialog proposing the person's last mapping of a kind again. On both databases, no 5xx answers.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the page there.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { addUserToOrganization, createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { targets } from '../helpers/databases.ts'
import { seedCrm } from './crm-seed.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe.each(await targets())('the Reports page in the browser on %s', (target) => {
  let svc: E2eService
  let browser: Browser
  let page: Page
  let failures: ReturnType<typeof watchFailures>
  let grace: string
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-reports-'))

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService(target), launchChromium()])
    const db = svc.service.app!.db
    const { orgId } = await createOrganizationWithAdmin(db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    grace = (await addUserToOrganization(db, orgId, { email: 'grace@acme.test', password: PASSWORD, role: 'member', name: 'Grace Hopper' })).userId
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
    context.setDefaultTimeout(15_000)
    failures = watchFailures(context)
    page = await context.newPage()
    failures.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await seedCrm(page, svc.url)
    const post = async (p: string, body: Record<string, unknown>) => expect((await apiPost(page, svc.url, p, body)).status).toBe(201)
    await post('/opportunities', { name: 'Grace deal', stage: 'proposal', amount: '64000', close_date: '2027-01-20', owner_id: grace })
    await post('/opportunities', { name: 'Grace win', stage: 'closed_won', amount: '22000', close_date: '2026-11-02', owner_id: grace })
    for (const [subject, priority] of [['Printer jam', 'high'], ['Login fails', 'critical'], ['Invoice copy', 'low']]) await post('/cases', { subject, priority })
    for (const [kind, subject, owner] of [['call', 'Intro call', grace], ['email', 'Follow-up', grace], ['task', 'Send quote', null], ['event', 'Demo', grace]] as const) await post('/activities', { kind, subject, owner_id: owner }) // null: unassigned (a new record is otherwise its creator's)
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const card = (title: string) => page.locator('.mantine-Paper-root').filter({ has: page.getByRole('heading', { name: title }) })

  it('draws the four charts from live data and narrows them to one owner and period', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click()
    await page.waitForURL(`${svc.url}/app/reports`)
    // A period that holds every seeded close date.
    await page.getByLabel('From', { exact: true }).fill('2026-06-01')
    await page.getByLabel('To', { exact: true }).fill('2027-03-31')
    for (const title of ['Pipeline by stage and owner', 'Won and lost', 'Cases opened and closed', 'Activities per owner']) await card(title).locator('.recharts-surface').first().waitFor()
    // Owners by name in the legends, not ids.
    await card('Pipeline by stage and owner').getByText('Grace Hopper').first().waitFor()
    await card('Activities per owner').getByText('Unassigned').first().waitFor()
    await card('Won and lost').getByText(/2 won, 1 lost · \$41,800 won/).waitFor()
    await shot(page, 'reports')

    await page.getByLabel('Owner', { exact: true }).click()
    await page.getByRole('option', { name: 'Grace Hopper' }).click()
    await card('Won and lost').getByText(/1 won, 0 lost · \$22,000 won/).waitFor()
    await expect.poll(() => card('Activities per owner').getByText('Unassigned').count()).toBe(0)
    await shot(page, 'reports-one-owner')

    await page.getByLabel('From', { exact: true }).fill('2020-01-01')
    await page.getByLabel('To', { exact: true }).fill('2020-03-31')
    await card('Won and lost').getByText('No opportunity was won or lost in this period.').waitFor()
    await card('Activities per owner').getByText('No activity was logged in this period.').waitFor()
    expect(failures.serverErrors).toEqual([])
    expect(failures.pageErrors).toEqual([])
  })

  it('proposes the last mapping of a kind again for a new file with the same columns', async () => {
    const csv = path.join(dir, 'people.csv')
    fs.writeFileSync(csv, 'Who,Mail,Role\r\nLovelace,ada@example.com,Countess\r\n')
    const form = { kind: 'contacts', mapping: JSON.stringify({ Who: 'last_name', Mail: 'email', Role: 'department' }) }
    const me = (await (await page.request.get(`${svc.url}/api/v1/me`)).json()) as { csrf_token: string }
    const res = await page.request.post(`${svc.url}/api/v1/imports`, { multipart: { ...form, file: { name: 'people.csv', mimeType: 'text/csv', buffer: fs.readFileSync(csv) } }, headers: { 'x-csrf-token': me.csrf_token, origin: svc.url } })
    expect(res.status()).toBe(202)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    await page.getByRole('button', { name: 'Import' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import contacts' })
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByLabel('CSV file').click()
    await (await chooser).setFiles(csv)
    await dialog.getByRole('button', { name: 'Next: match columns' }).click()
    // From the header alone "Role" would fill Title: Department is the person's last choice.
    await expect.poll(() => dialog.getByLabel('Field for column Role').inputValue()).toBe('Department')
    expect(await dialog.getByLabel('Field for column Who').inputValue()).toBe('Last name (required)')
    expect(await dialog.getByLabel('Field for column Mail').inputValue()).toBe('Email')
    await shot(page, 'import-remembered-mapping')
    expect(failures.serverErrors).toEqual([])
  })
})
