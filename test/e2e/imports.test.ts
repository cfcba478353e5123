/**
 * Browser end-to-end test of Import / Export on a list page: a person picks a CSV file, reviews the
 * proposed column mapping (changes one column, leaves one out), starts the import, follows its
 * progress to the result with its issues to download, sees the records in the list, and exports the
 * filtered list as a file. On both databases; the server never answers with a 5xx.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the dialog's steps and the list page there.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { targets } from '../helpers/databases.ts'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 20_000 })

describe.each(await targets())('Import and Export on a list page on %s', (target) => {
  let svc: E2eService
  let browser: Browser
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-e2e-csv-'))

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService(target), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('imports a reviewed file with live progress and issues, then exports the filtered list', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, acceptDownloads: true })
    context.setDefaultTimeout(20_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    expect((await apiPost(page, svc.url, '/accounts', { name: 'Globex' })).status).toBe(201)
    // A custom field of contacts: the column titled by its label maps to it like a built-in field.
    expect((await apiPost(page, svc.url, '/custom-fields', { kind: 'contact', name: 'booth', label: 'Booth', type: 'picklist', options: ['North', 'South'] })).status).toBe(201)

    const csv = path.join(dir, 'trade-show-leads.csv')
    const lines = ['First Name,Last Name,E-mail,Company,Mobile,Notes,Booth']
    for (let i = 1; i <= 40; i++) lines.push(`Person,Number ${String(i).padStart(2, '0')},p${i}@example.com,Globex,+1 555 01${String(i).padStart(2, '0')},met at booth,${i % 2 ? 'north' : 'South'}`)
    lines.push('Broken,Email,not-an-email,Globex,,,')
    lines.push('No,,missing@example.com,Nobody Inc,,,')
    fs.writeFileSync(csv, `${lines.join('\r\n')}\r\n`)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click()
    await page.waitForURL(`${svc.url}/app/contacts`)
    await page.getByRole('button', { name: 'Import' }).waitFor()
    await shot(page, 'contacts-list-actions')

    await page.getByRole('button', { name: 'Import' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import contacts' })
    const chooser = page.waitForEvent('filechooser')
    await dialog.getByLabel('CSV file').click()
    await (await chooser).setFiles(csv)
    // Mobile and Notes map by their common names (mobile phone, description).
    await dialog.getByText('7 columns; 6 match fields of contacts.').waitFor()
    await dialog.getByLabel('When a row matches an existing record').click()
    await page.getByRole('option', { name: 'Update the contact with the same email' }).click()
    await shot(page, 'import-choose-file')
    await dialog.getByRole('button', { name: 'Next: match columns' }).click()

    // Proposed from the header: First Name, Last Name and E-mail; the person maps Mobile and Company.
    await poll(() => dialog.getByLabel('Field for column E-mail').inputValue()).toBe('Email')
    expect(await dialog.getByLabel('Field for column Booth').inputValue()).toBe('Booth')
    await dialog.getByLabel('Field for column Mobile').click()
    await page.getByRole('option', { name: 'Mobile phone', exact: true }).click()
    await dialog.getByLabel('Field for column Company').click()
    await page.getByRole('option', { name: 'Account', exact: true }).click()
    await shot(page, 'import-match-columns')
    await dialog.getByRole('button', { name: 'Start import' }).click()

    await dialog.locator('[data-import-status="completed_with_errors"]').waitFor()
    await poll(() => dialog.getByLabel('Created', { exact: true }).textContent()).toBe('40')
    expect(await dialog.getByLabel('Not imported', { exact: true }).textContent()).toBe('2')
    await dialog.getByText('2 issues in 2 rows').waitFor()
    await shot(page, 'import-result')
    const issues = page.waitForEvent('download')
    await dialog.getByRole('link', { name: 'Download issues (CSV)' }).click()
    const issuesFile = await (await issues).path()
    const issueText = fs.readFileSync(issuesFile, 'utf8')
    expect(issueText).toContain('42,E-mail,email,')
    expect(issueText).toContain('43,Company,account_id,')
    await dialog.getByRole('button', { name: 'Done' }).click()

    const rows = page.locator('table:not([aria-busy]) tbody tr')
    await poll(() => rows.count()).toBe(40)
    await poll(() => page.getByLabel('Matching records').textContent()).toBe('40')

    // Export what the page shows: a search narrows the list, and the file.
    await page.getByPlaceholder(/Search/).fill('Number 0')
    await poll(() => rows.count()).toBe(9)
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'Export' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/)
    const exported = fs.readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n')
    // Headers are the labels, as in the app.
    expect(exported[0].split(',').slice(0, 3)).toEqual(['ID', 'First name', 'Last name'])
    expect(exported).toHaveLength(1 + 9)
    expect(exported.filter((l) => l.includes('+1 555 0105'))).toHaveLength(1)
    // The picklist value as defined ("north" in the file is the option North), in its own column.
    const booth = exported[0].split(',').indexOf('Booth')
    expect(exported.find((l) => l.includes('+1 555 0105'))!.split(',')[booth]).toBe('North')
    await shot(page, 'contacts-list-after-import')

    expect(watch.serverErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
    await context.close()
  })
})
