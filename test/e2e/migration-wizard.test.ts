/**
 * Browser end-to-end test of the migration wizard against the source-platform simulator (in
 * process, dataset demo; its sandbox org is the small one, about 800 records): an administrator
 * opens Migration, connects to the sandbox through the simulator's consent page, waits for the
 * report (score and chart), sees a refused field mapping at its field, changes a setting in
 * Configure and saves it, starts the run, follows
 * the live progress (Server-Sent Events) to the end, and reads the validation summary and the
 * records to look at.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of every step there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { startSourceSim, type SourceSim } from '../../tools/source-sim/main.ts'
import { ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe('Migration wizard in the browser', () => {
  let sim: SourceSim
  let svc: E2eService
  let browser: Browser

  beforeAll(async () => {
    ensureWebBuild()
    sim = await startSourceSim({ port: 0, dataset: 'demo' })
    ;[svc, browser] = await Promise.all([
      startE2eService('pglite', {
        ALLOW_PRIVATE_OUTBOUND: 'true',
        SOURCE_CLIENT_ID: sim.options.clientId,
        SOURCE_CLIENT_SECRET: sim.options.clientSecret,
        SOURCE_LOGIN_URL: sim.url,
        SOURCE_SANDBOX_LOGIN_URL: sim.sandboxLoginUrl,
      }),
      launchChromium(),
    ])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    await sim?.close()
  })

  it('connects a sandbox, reports, configures, migrates live and validates', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    const streams: string[] = []
    page.on('request', (req) => {
      if (req.url().endsWith('/events')) streams.push(req.url())
    })
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)

    // The list starts empty and recommends a sandbox.
    await page.getByRole('group', { name: 'Data' }).getByRole('link', { name: 'Migration' }).click()
    await page.waitForURL(`${svc.url}/app/migration`)
    await page.getByText('No migrations yet').waitFor()
    await shot(page, 'migration-empty')

    // 1. Connect: sandbox is preselected; the simulator's consent page sends the browser back.
    await page.getByRole('link', { name: 'New migration' }).first().click()
    await page.waitForURL(`${svc.url}/app/migration/new`)
    expect(await page.getByRole('radio', { name: 'Sandbox' }).getAttribute('aria-checked')).toBe('true')
    await shot(page, 'migration-connect')
    await page.getByRole('button', { name: 'Connect to Salesforce sandbox' }).click()
    await page.waitForURL(`${sim.url}/sandbox/**`)
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(/\/app\/migration\/[0-9a-f-]{36}$/)
    const id = page.url().split('/').at(-1)!

    // 2-3. Analyze, then the report: the score with its explanation, and the record-count chart.
    const score = page.getByTestId('readiness-score')
    await score.waitFor({ timeout: 90_000 })
    const value = Number((await score.innerText()).split(/\s/)[0])
    expect(value).toBeGreaterThanOrEqual(0)
    expect(value).toBeLessThanOrEqual(100)
    await page.getByRole('heading', { name: 'Records per object' }).waitFor()
    await page.locator('[aria-label="Records per object"] .recharts-bar-rectangle').first().waitFor()
    await page.getByRole('table', { name: 'Objects' }).getByText('Account', { exact: true }).first().waitFor()
    await page.getByRole('heading', { name: 'Risks and recommended actions' }).waitFor()
    await page.getByRole('heading', { name: 'Estimated timeline' }).waitFor()
    await page.getByRole('button', { name: 'Account fields' }).click()
    await page.getByRole('table', { name: 'Account field mapping' }).waitFor()
    await shot(page, 'migration-report')
    const download = await page.request.get(`${svc.url}/api/v1/migration/${id}/report?download=true`)
    expect(download.headers()['content-disposition']).toContain('attachment')

    // 4. Configure: a mapping the server refuses (two fields into one) is shown at the field and in
    // the summary; undone, and one setting changed, the configuration saves.
    await page.getByRole('button', { name: 'Continue to configure' }).first().click()
    await page.getByRole('table', { name: 'Objects to import' }).waitFor()
    await page.getByRole('button', { name: 'Account field mapping' }).click()
    await page.getByLabel('Find a field of Account').fill('fax')
    await page.getByLabel('Import Account.Fax as').click()
    await page.getByRole('option', { name: 'Phone (phone)' }).click()
    await page.getByRole('button', { name: 'Save and continue' }).click()
    await page.getByRole('alert').filter({ hasText: 'The configuration has 1 problem' }).getByText('Account · Fax').waitFor()
    await page.locator('[data-field="Fax"]').getByText(/already filled from Phone/).waitFor()
    await shot(page, 'migration-configure-error')
    await page.getByRole('button', { name: 'Reset Fax' }).click()
    await page.getByRole('radio', { name: 'Skip the record' }).check()
    await page.getByRole('switch', { name: 'Create custom fields for unmapped source fields' }).check()
    await shot(page, 'migration-configure')
    await page.getByRole('button', { name: 'Save and continue' }).click()
    await page.getByRole('heading', { name: 'Ready to migrate' }).waitFor()
    const saved = (await (await page.request.get(`${svc.url}/api/v1/migration/${id}`)).json()) as { status: string; config: { relationships: { missing_parent: string }; create_custom_fields?: boolean } }
    expect(saved.status).toBe('configured')
    expect(saved.config.relationships.missing_parent).toBe('skip_record')
    expect(saved.config.create_custom_fields).toBe(true)
    await page.getByText('Unmapped source fields become custom fields of their kind.').waitFor()
    await shot(page, 'migration-ready')

    // 5. Migrate: live progress through the event stream, to the end. The source answers slowly
    // for this part, so the run lasts a few seconds and an object is seen importing on the way.
    sim.control.setFaults({ delayMs: 400 })
    await page.getByRole('button', { name: 'Start migration' }).click()
    await page.getByRole('table', { name: 'Progress per object' }).locator('tr[data-status="running"]').first().waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'Cancel migration' }).waitFor()
    await shot(page, 'migration-running')
    const result = page.getByTestId('run-result')
    await result.waitFor({ timeout: 120_000 })
    sim.control.setFaults({ delayMs: 0 })
    expect(await result.innerText()).toMatch(/Migration completed/)
    expect(streams.length).toBeGreaterThan(0)
    const done = (await (await page.request.get(`${svc.url}/api/v1/migration/${id}`)).json()) as { progress: Array<{ status: string }> }
    expect(done.progress.every((p) => p.status === 'completed')).toBe(true)

    // The validation summary (table and chart) and the records to look at.
    const validation = page.getByRole('table', { name: 'Validation summary' })
    await validation.waitFor()
    expect(await validation.locator('tbody tr').count()).toBeGreaterThan(0)
    await page.locator('[aria-label="Source count against imported, per object"] .recharts-bar-rectangle').first().waitFor()
    await page.getByRole('heading', { name: 'Records to look at' }).waitFor()
    await page.locator('[data-issue-id]').first().or(page.getByText('No failed, skipped or warned records.')).waitFor()
    const firstIssue = page.locator('[data-issue-id] button').first()
    if (await firstIssue.count()) {
      await firstIssue.click()
      await page.getByText('Reason code').first().waitFor()
    }
    await shot(page, 'migration-done')

    // Unmapped source fields became custom fields, listed in Settings -> Fields.
    const defined = (await (await page.request.get(`${svc.url}/api/v1/custom-fields`)).json()) as { data: unknown[] }
    expect(defined.data.length).toBeGreaterThan(0)

    // Earlier steps stay reviewable: the report is one click away.
    await page.getByRole('button', { name: /^Report:/ }).click()
    await score.waitFor()

    expect([...watch.serverErrors, ...watch.pageErrors]).toEqual([])
    await context.close()
  }, 300_000)
})
