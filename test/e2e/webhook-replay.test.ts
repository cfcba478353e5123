/**
 * Browser end-to-end test of a webhook's delivery rules and replays: an administrator with a
 * history of opportunities adds a webhook ordered per record with a filter (a bad one is refused
 * with the part it names under the editor), sees its rules on the webhook page, replays past
 * events from a seq, watches the progress reach "Completed", and finds the replayed and the
 * filtered deliveries in the log. With E2E_SCREENSHOTS=<dir>, saves screenshots there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'
import { startReceiver, type Receiver } from '../webhooks/receiver.ts'

const PASSWORD = 'correct horse battery'

describe('Webhook replay, order and filter in the browser', () => {
  let svc: E2eService
  let browser: Browser
  let receiver: Receiver

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser, receiver] = await Promise.all([startE2eService('pglite', { ALLOW_PRIVATE_OUTBOUND: 'true' }), launchChromium(), startReceiver('/cairn-events')])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
    await receiver?.close()
  })

  it('adds an ordered, filtered webhook, replays past events and shows the progress and the log', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const watch = watchFailures(context)
    const page = await context.newPage()
    watch.watch(page)
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)

    // History before the webhook exists: three opportunities, one of them won.
    for (const [name, stage] of [['Globex renewal', 'closed_won'], ['Initech pilot', 'proposal'], ['Umbrella upsell', 'closed_lost']]) {
      expect((await apiPost(page, svc.url, '/opportunities', { name, stage, amount: 1000 })).status).toBe(201)
    }

    await page.goto(`${svc.url}/app/settings/webhooks`)
    await page.getByRole('button', { name: 'Add webhook' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Add webhook' })
    await dialog.getByLabel('Endpoint URL').fill(receiver.url)
    await dialog.getByRole('group', { name: 'Opportunities events' }).getByLabel('Created').check()
    await dialog.getByText('In order per record', { exact: true }).click()
    await dialog.getByRole('switch', { name: /Only send events whose record matches a filter/ }).evaluate((el) => (el as HTMLInputElement).click())
    await dialog.getByRole('textbox', { name: 'Filter' }).fill('{"field": "stage", "in": ["won"]}')
    // Leaving the editor formats the JSON (the layout moves): do it before aiming at the button.
    await dialog.getByRole('textbox', { name: 'Filter' }).blur()
    await dialog.getByRole('button', { name: 'Add webhook' }).click()
    await dialog.getByRole('list', { name: 'Filter errors' }).getByText('"won" is not a value of "stage"').waitFor()
    await shot(page, 'webhook-filter-error')
    await dialog.getByRole('textbox', { name: 'Filter' }).fill('{"field": "stage", "in": ["closed_won", "closed_lost"]}')
    await dialog.getByRole('textbox', { name: 'Filter' }).blur()
    await dialog.getByText('Sends events where stage is one of closed_won, closed_lost.').waitFor()
    await shot(page, 'webhook-form-rules')
    await dialog.getByRole('button', { name: 'Add webhook' }).click()
    await page.getByRole('button', { name: 'I have copied the secret' }).click()

    const row = page.locator('tr[data-webhook-id]')
    await row.getByText('In order per record').waitFor()
    await row.getByText('Filtered').waitFor()
    await shot(page, 'webhooks-list-rules')
    await row.getByRole('link', { name: receiver.url }).click()
    await page.getByText('In order per record: one event of a record at a time, oldest first').waitFor()
    await page.getByText('Only events where stage is one of closed_won, closed_lost').waitFor()
    await page.getByText('No replay yet.').waitFor()

    await page.getByRole('button', { name: 'Replay events…' }).click()
    const replay = page.getByRole('dialog', { name: 'Replay events' })
    await replay.getByText('From a feed position (seq)').click()
    await replay.getByLabel('Replay events from seq').fill('1')
    await shot(page, 'webhook-replay-form')
    await replay.getByRole('button', { name: 'Start replay' }).click()
    await replay.waitFor({ state: 'detached' })

    const progress = page.getByLabel('Replay progress')
    await progress.getByText('Completed').waitFor({ timeout: 20_000 })
    await progress.getByText('3 of 3 events · 2 to send').waitFor()
    await progress.getByText('2 of 2').waitFor()
    await page.getByRole('button', { name: 'opportunity.created delivery, Delivered' }).first().waitFor()
    await shot(page, 'webhook-replayed')
    expect(receiver.received.map((r) => JSON.parse(r.body).data.object.name).sort()).toEqual(['Globex renewal', 'Umbrella upsell'])
    await expect(page.getByText('replay', { exact: true }).count()).resolves.toBe(2)

    // A live change the filter refuses shows as Filtered and is not sent.
    expect((await apiPost(page, svc.url, '/opportunities', { name: 'Hooli trial', stage: 'prospecting' })).status).toBe(201)
    await page.getByRole('button', { name: 'opportunity.created delivery, Filtered' }).waitFor({ timeout: 20_000 })
    await page.getByRole('button', { name: 'opportunity.created delivery, Filtered' }).click()
    await page.getByText('Not sent: the webhook\'s filter did not accept this event when it was due.').waitFor()
    await shot(page, 'webhook-filtered-log')
    expect(receiver.received).toHaveLength(2)

    // Thin payloads: the next delivery carries only the reference and its seq.
    await page.getByRole('button', { name: 'Edit' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit webhook' })
    await edit.getByText('Thin (reference only)', { exact: true }).click()
    await edit.getByText('Each delivery is {id, seq, type, timestamp, object_id}', { exact: false }).waitFor()
    await shot(page, 'webhook-form-thin')
    await edit.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Thin: id, seq, type, timestamp and object_id only').waitFor()
    const won = (await apiPost(page, svc.url, '/opportunities', { name: 'Initech win', stage: 'closed_won' })).json
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(3)
    const thin = JSON.parse(receiver.received[2].body)
    expect(Object.keys(thin)).toEqual(['id', 'seq', 'type', 'timestamp', 'object_id'])
    expect(thin).toMatchObject({ type: 'opportunity.created', object_id: won.id })
    await shot(page, 'webhook-thin')

    expect([...watch.serverErrors, ...watch.pageErrors]).toEqual([])
    await context.close()
  })
})
