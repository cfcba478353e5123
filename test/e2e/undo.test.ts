/**
 * Browser end-to-end test of undo: a person imports a CSV file from the app, opens the import's
 * page, undoes the import after its confirmation, and sees the records gone and the operation
 * marked undone on the Operations page; then undoes one field change from a record's History tab
 * and sees the old value back and the undo itself in the history. Real service, real Chromium, on
 * both databases; the server never answers with a 5xx and the page never throws.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the pages there.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { targets } from '../helpers/databases.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000 })

async function apiPatch(page: Page, baseUrl: string, apiPath: string, body: unknown): Promise<number> {
  const csrf = ((await (await page.request.get(`${baseUrl}/api/v1/me`)).json()) as { csrf_token: string }).csrf_token
  return (await page.request.patch(`${baseUrl}/api/v1${apiPath}`, { data: body, headers: { 'x-csrf-token': csrf, origin: baseUrl } })).status()
}

describe.each(await targets())('undo in the browser on %s', (target) => {
  let svc: E2eService
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let watch: ReturnType<typeof watchFailures>
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-undo-'))

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService(target), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(20_000)
    watch = watchFailures(context)
    page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('imports a file, undoes the import from its page, and the operation reads as undone', async () => {
    const csv = path.join(dir, 'expo-contacts.csv')
    const lines = ['First Name,Last Name,E-mail']
    for (let i = 1; i <= 6; i++) lines.push(`Guest,Visitor ${i},guest${i}@example.com`)
    fs.writeFileSync(csv, `${lines.join('\r\n')}\r\n`)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    await page.waitForURL(`${svc.url}/app/contacts`)
    await page.getByRole('button', { name: 'Import' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import contacts' })
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByLabel('CSV file').click()
    await (await chooser).setFiles(csv)
    await dialog.getByRole('button', { name: 'Next: match columns' }).click()
    await dialog.getByRole('button', { name: 'Start import' }).click()
    await dialog.locator('[data-import-status="completed"]').waitFor()
    await poll(() => dialog.getByLabel('Created', { exact: true }).textContent()).toBe('6')
    await dialog.getByRole('link', { name: 'Open the import’s page' }).click()
    await page.waitForURL(/\/app\/imports\/[0-9a-f-]{36}$/)
    const importId = page.url().split('/').at(-1)!
    await page.getByRole('heading', { name: 'expo-contacts.csv', level: 2 }).waitFor()
    await shot(page, 'import-page')

    await page.getByRole('button', { name: 'Undo this import' }).click()
    const confirm = page.getByRole('dialog', { name: 'Undo this import?' })
    await confirm.getByText('delete the 6 records it created').waitFor()
    await shot(page, 'import-undo-confirm')
    await confirm.getByRole('button', { name: 'Undo', exact: true }).click()
    await confirm.locator('[data-revert-state="succeeded"]').waitFor()
    await confirm.getByText('6 changes were reverted.').waitFor()
    await shot(page, 'import-undo-done')
    await confirm.getByRole('button', { name: 'Done' }).click()
    // The page now says the import was undone, and offers it no more.
    await page.locator('[data-reverted]').waitFor()
    expect(await page.getByRole('button', { name: 'Undo this import' }).count()).toBe(0)
    await shot(page, 'import-page-undone')

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    const list = await page.request.get(`${svc.url}/api/v1/contacts`)
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(0)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click()
    await page.waitForURL(`${svc.url}/app/operations`)
    const imported = page.locator(`[data-operation="${importId}"]`)
    await imported.getByText('CSV import', { exact: true }).first().waitFor()
    await imported.getByText('6 created').waitFor()
    await imported.getByText('Undone').waitFor()
    await shot(page, 'operations-page')
    // The undo is an operation too: it deleted the six contacts and says what it undid.
    await page.getByRole('table', { name: 'Operations' }).getByText('6 deleted').waitFor()
    await imported.getByRole('link').first().click()
    await page.waitForURL(`${svc.url}/app/operations/${importId}`)
    await page.getByLabel('Created', { exact: true }).filter({ hasText: '6' }).waitFor()
    await shot(page, 'operation-page')
  })

  it("undoes one field change from a record's History", async () => {
    const created = await apiPost(page, svc.url, '/accounts', { name: 'Initech', industry: 'Technology' })
    expect(created.status).toBe(201)
    const id = created.json.id as string
    expect(await apiPatch(page, svc.url, `/accounts/${id}`, { industry: 'Banking' })).toBe(200)

    await page.goto(`${svc.url}/app/accounts/${id}?tab=history`)
    const history = page.getByRole('region', { name: 'History' })
    const entries = history.locator('[data-history-entry]')
    await poll(() => entries.count()).toBe(2)
    const change = entries.first()
    await history.getByText('Changed industry').waitFor()
    await change.getByText('Ada Admin').waitFor()
    await change.getByText('Technology').waitFor()
    await change.getByText('Banking').waitFor()
    await shot(page, 'record-history')

    await change.getByRole('button', { name: 'Undo: Changed industry' }).click()
    const confirm = page.getByRole('dialog', { name: 'Undo?' })
    await confirm.getByText('set back the fields of the 1 record it changed').waitFor()
    await confirm.getByRole('button', { name: 'Undo', exact: true }).click()
    await confirm.locator('[data-revert-state="succeeded"]').waitFor()
    await confirm.getByRole('button', { name: 'Done' }).click()

    // The field is back, the undo is the newest entry, and the change it undid reads as undone.
    await poll(() => entries.count()).toBe(3)
    await poll(async () => (await (await page.request.get(`${svc.url}/api/v1/accounts/${id}`)).json()).industry).toBe('Technology')
    await poll(() => entries.nth(1).locator('[data-reverted]').count()).toBe(1)
    await shot(page, 'record-history-undone')

    expect(watch.serverErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
  })
})
