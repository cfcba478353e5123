/**
 * Browser end-to-end test of Settings -> Webhooks: an administrator adds a webhook (a bad URL is
 * refused under its field first, events chosen through the grouped checklist, a generated secret
 * shown once), sends a test event, and sees it delivered in the log; a record change follows; the
 * receiver verifies every delivery with the `standardwebhooks` package. A member who opens the
 * list or a webhook's page is told that webhooks are for administrators.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the page's states there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { addUserToOrganization, createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, shot, launchChromium, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

const PASSWORD = 'correct horse battery'

describe('Settings -> Webhooks in the browser', () => {
  let svc: E2eService
  let browser: Browser
  let receiver: Receiver
  let orgId: string
  const failures: string[] = []

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser, receiver] = await Promise.all([startE2eService('pglite', { ALLOW_PRIVATE_OUTBOUND: 'true' }), launchChromium(), startReceiver('/cairn-events')])
    ;({ orgId } = await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' }))
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    await receiver?.close()
  })

  it('adds a webhook, sends a test event and shows the delivery in the log', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.getByRole('group', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.waitForURL(`${svc.url}/app/settings/webhooks`)
    await page.getByText('No webhooks yet').waitFor()
    await shot(page, 'webhooks-empty')

    await page.getByRole('button', { name: 'Add webhook' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Add webhook' })
    await dialog.getByLabel('Endpoint URL').fill('ftp://nope.example/x')
    await dialog.getByRole('group', { name: 'Opportunities events' }).getByLabel('All opportunities events').check()
    await dialog.getByRole('group', { name: 'Cases events' }).getByLabel('Escalated').check()
    await shot(page, 'webhooks-form')
    await dialog.getByRole('button', { name: 'Add webhook' }).click()
    await dialog.getByText('must use https').waitFor()

    await dialog.getByLabel('Endpoint URL').fill(receiver.url)
    await dialog.getByRole('button', { name: 'Add webhook' }).click()
    const secretBox = page.getByRole('dialog', { name: 'Signing secret' }).getByLabel('Signing secret', { exact: true })
    await secretBox.waitFor()
    const secret = (await secretBox.textContent())!.trim()
    expect(secret).toMatch(/^whsec_/)
    await shot(page, 'webhooks-secret')
    await page.getByRole('button', { name: 'I have copied the secret' }).click()

    const row = page.locator('tr[data-webhook-id]')
    await row.getByText('5 events · opportunities, cases').waitFor()
    await row.getByText('0 delivered').waitFor()
    await shot(page, 'webhooks-list')
    await row.getByRole('link', { name: receiver.url }).click()
    await page.getByRole('button', { name: 'Send test event' }).click()
    await page.getByText('Test event queued').waitFor()
    await page.getByRole('button', { name: 'webhook.test delivery, Delivered' }).waitFor({ timeout: 20_000 })

    // A real change reaches the endpoint and the log as well.
    const created = await apiPost(page, svc.url, '/opportunities', { name: 'Browser deal', amount: 5000 })
    expect(created.status).toBe(201)
    await page.getByRole('button', { name: 'opportunity.created delivery, Delivered' }).waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'webhook.test delivery, Delivered' }).click()
    await page.getByText('"webhook.test"').waitFor()
    await shot(page, 'webhook-detail')

    const verifier = new Webhook(secret)
    const types = receiver.received.map((r) => (verifier.verify(r.body, r.headers) as { type: string }).type)
    expect(types).toEqual(['webhook.test', 'opportunity.created'])

    // Disable and re-enable with one click each.
    await page.getByRole('button', { name: 'Disable' }).click()
    await page.getByText('This webhook is disabled').waitFor()
    await page.getByRole('button', { name: 'Re-enable' }).click()
    await page.getByText('This webhook is disabled').waitFor({ state: 'detached' })
    failures.push(...watch.serverErrors, ...watch.pageErrors)
    expect(failures).toEqual([])
    await context.close()
  })

  it("tells a member, on the list and on a webhook's page, that webhooks are for administrators", async () => {
    const admin = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    const adminPage = await admin.newPage()
    await signIn(adminPage, svc.url, 'ada@acme.test', PASSWORD)
    const hook = await apiPost(adminPage, svc.url, '/webhooks', { url: `${receiver.url}/for-admins`, events: ['account.created'] })
    expect(hook.status).toBe(201)
    await admin.close()

    await addUserToOrganization(svc.service.app!.db, orgId, { email: 'max@acme.test', password: PASSWORD, role: 'member', name: 'Max Member' })
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'max@acme.test', PASSWORD)
    // A link someone shared: the page must not show the endpoint, nor actions that would be refused.
    await page.goto(`${svc.url}/app/settings/webhooks/${hook.json.id}`)
    await page.getByText('Only administrators can manage webhooks').waitFor()
    expect(await page.getByText(`${receiver.url}/for-admins`).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Send test event' }).count()).toBe(0)
    await shot(page, 'webhook-detail-member')
    await page.goto(`${svc.url}/app/settings/webhooks`)
    await page.getByText('Only administrators can manage webhooks').waitFor()
    failures.push(...watch.serverErrors, ...watch.pageErrors)
    expect(failures).toEqual([])
    await context.close()
  })
})
