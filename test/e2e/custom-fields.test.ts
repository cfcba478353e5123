/**
 * Browser end-to-end test of custom fields: an administrator defines a picklist field for contacts
 * in Settings -> Fields (options editor, API name proposed from the label), sets it on a contact
 * through the form, sees it on the record page, shows it as a list column and filters the list by
 * it; an invalid number is flagged under its field and nothing is sent (-5 stays -5, never 0); a
 * value the server refuses lands under its field with no raw API text; a blank name is "Cannot be
 * blank", as the API says; a record's timeline tells custom field changes one line per field under
 * its label. Deleting asks first.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the states there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, ensureWebBuild, launchChromium, shot, signIn, startE2eService, watchFailures, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe('custom fields in the browser', () => {
  let svc: E2eService
  let browser: Browser
  const serverErrors: string[] = []
  const pageErrors: string[] = []

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } })
    context.setDefaultTimeout(15_000)
    const failures = watchFailures(context)
    const page = await context.newPage()
    failures.watch(page)
    page.on('close', () => {
      serverErrors.push(...failures.serverErrors)
      pageErrors.push(...failures.pageErrors)
    })
    return page
  }

  beforeAll(async () => {
    ensureWebBuild()
    ;[svc, browser] = await Promise.all([startE2eService('pglite'), launchChromium()])
    await createOrganizationWithAdmin(svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('defines a picklist field, sets it on a contact, shows it and filters by it', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.getByRole('group', { name: 'Settings' }).getByRole('link', { name: 'Fields' }).click()
    await page.waitForURL(`${svc.url}/app/settings/fields`)
    await page.getByLabel('Record kind').getByText('Contacts', { exact: true }).click()
    await page.getByText('No custom fields on contacts yet').waitFor()
    await shot(page, 'fields-empty')

    await page.getByRole('button', { name: 'Add contact field' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Label', { exact: true }).fill('Customer tier')
    expect(await dialog.getByLabel('API name', { exact: true }).inputValue()).toBe('customer_tier')
    await dialog.getByLabel('Type', { exact: true }).click()
    await dialog.getByRole('option', { name: 'Picklist' }).click()
    // An empty option is flagged in the browser; nothing is sent.
    await dialog.getByRole('button', { name: 'Create field' }).click()
    await dialog.getByText('Enter the option or remove it').waitFor()
    await dialog.getByLabel('Option 1', { exact: true }).fill('Gold')
    await dialog.getByLabel('Option 1', { exact: true }).press('Enter')
    await dialog.getByLabel('Option 2', { exact: true }).fill('Silver')
    await dialog.getByRole('button', { name: 'Add option' }).click()
    await dialog.getByLabel('Option 3', { exact: true }).fill('Bronze')
    await shot(page, 'fields-create-picklist')
    await dialog.getByRole('button', { name: 'Create field' }).click()
    await dialog.waitFor({ state: 'detached' })
    const table = page.getByRole('table', { name: 'Contact fields' })
    await table.getByText('Customer tier').waitFor()
    await table.getByText('customer_tier').waitFor()
    // A number field too, for the form's checks.
    expect((await apiPost(page, svc.url, '/custom-fields', { kind: 'contact', name: 'seats', label: 'Seats', type: 'number' })).status).toBe(201)
    await page.reload()
    await table.getByText('Seats', { exact: true }).waitFor()
    await shot(page, 'fields-list')

    // The form: an invalid number is flagged and nothing is sent.
    await page.goto(`${svc.url}/app/contacts/new`)
    await page.getByLabel('Last name', { exact: true }).fill('Lovelace')
    await page.getByLabel('Customer tier', { exact: true }).click()
    await page.getByRole('option', { name: 'Gold' }).click()
    const posts: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/contacts')) posts.push(r.url())
    })
    // A lone minus sign is not a number: the number input keeps it as typed, and the check flags it.
    await page.getByLabel('Seats', { exact: true }).fill('-')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Enter a number').waitFor()
    await page.getByText('Nothing was sent').waitFor()
    await shot(page, 'record-form-invalid-number')
    expect(posts).toEqual([])
    // -5 stays -5 (not clamped or zeroed) and is saved as such.
    await page.getByLabel('Seats', { exact: true }).fill('-5')
    await page.getByLabel('Last name', { exact: true }).click()
    expect(await page.getByLabel('Seats', { exact: true }).inputValue()).toBe('-5')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/contacts\/[0-9a-f-]{36}$/)
    expect(posts).toHaveLength(1)
    const details = page.getByText('Custom fields', { exact: true })
    await details.waitFor()
    await page.getByText('Gold', { exact: true }).waitFor()
    await page.getByText('-5', { exact: true }).waitFor()
    await shot(page, 'record-page-custom-fields')

    // Editing: the form shows the stored values and sends only what changed.
    const patches: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'PATCH') patches.push(r.postData() ?? '')
    })
    await page.getByRole('link', { name: 'Edit' }).or(page.getByRole('button', { name: 'Edit' })).first().click()
    expect(await page.getByLabel('Seats', { exact: true }).inputValue()).toBe('-5')
    await page.getByLabel('Seats', { exact: true }).fill('12')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/contacts\/[0-9a-f-]{36}$/)
    // The new value on the page, and the change in the timeline under the field's label.
    await page.getByText('12', { exact: true }).first().waitFor()
    await page.getByRole('region', { name: 'Timeline' }).getByText('Changed seats').waitFor()
    expect(patches.map((p) => JSON.parse(p))).toEqual([{ custom_fields: { seats: 12 } }])

    // Another contact through the API, so the filter has something to leave out.
    expect((await apiPost(page, svc.url, '/contacts', { last_name: 'Hopper', custom_fields: { customer_tier: 'Silver' } })).status).toBe(201)

    // The list: the field as a column, then a filter by it.
    await page.goto(`${svc.url}/app/contacts`)
    await page.getByRole('link', { name: 'Hopper' }).waitFor()
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('menuitem', { name: 'Customer tier' }).click()
    await page.keyboard.press('Escape')
    await page.getByRole('columnheader', { name: 'Customer tier' }).waitFor()
    await page.getByRole('button', { name: 'Filter by field' }).click()
    await page.getByRole('textbox', { name: 'Field', exact: true }).or(page.getByRole('combobox', { name: 'Field', exact: true })).first().click()
    await page.getByRole('option', { name: 'Customer tier' }).click()
    await page.getByRole('textbox', { name: 'Customer tier value' }).or(page.getByRole('combobox', { name: 'Customer tier value' })).first().click()
    await page.getByRole('option', { name: 'Gold' }).click()
    await page.getByRole('button', { name: 'Apply filter' }).click()
    await page.waitForURL(/custom_fields\.customer_tier=Gold/)
    await page.getByRole('button', { name: 'Remove Customer tier filter' }).waitFor()
    await page.getByRole('link', { name: 'Lovelace' }).waitFor()
    await expect.poll(() => page.getByRole('link', { name: 'Hopper' }).count()).toBe(0)
    await shot(page, 'record-list-custom-filter')
    await page.close()
  })

  it('flags an out-of-range built-in number in the browser and sends nothing', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    const sent: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/opportunities')) sent.push(r.url())
    })
    await page.goto(`${svc.url}/app/opportunities/new`)
    await page.getByLabel('Name', { exact: true }).fill('Big deal')
    await page.getByLabel('Probability (%)', { exact: true }).fill('-5')
    await page.getByLabel('Name', { exact: true }).click()
    // Not clamped to 0: the value stays and is flagged.
    expect(await page.getByLabel('Probability (%)', { exact: true }).inputValue()).toBe('-5')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Must be at least 0').waitFor()
    expect(sent).toEqual([])
    await shot(page, 'record-form-out-of-range')
    await page.close()
  })

  it('says "Cannot be blank" for a name of spaces or invisible characters alone, as the API does, and sends nothing', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    const sent: string[] = []
    page.on('request', (r) => {
      if (['POST', 'PATCH'].includes(r.method()) && r.url().includes('/api/v1/accounts')) sent.push(`${r.method()} ${r.url()}`)
    })
    await page.goto(`${svc.url}/app/accounts/new`)
    const name = page.getByLabel('Name', { exact: true })
    // Empty: "Required", as before. Blank, in any of its forms: the API's own words.
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Required', { exact: true }).waitFor()
    for (const blank of ['   ', '\u00a0\u3000', '\u200b']) {
      await name.fill(blank)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByText('Cannot be blank', { exact: true }).waitFor()
    }
    await shot(page, 'record-form-blank-name')
    expect(sent).toEqual([])
    // The same on an edit; a name with spaces around it is saved trimmed.
    await name.fill('  Globex  ')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/accounts\/[0-9a-f-]{36}$/)
    await page.getByRole('heading', { name: 'Globex', level: 2 }).waitFor()
    await page.goto(`${page.url()}/edit`)
    await name.fill(' ')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Cannot be blank', { exact: true }).waitFor()
    expect(sent.filter((s) => s.startsWith('PATCH'))).toEqual([])
    await page.close()
  })

  it('shows a refusal only the server could know under its field, without raw API text', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.goto(`${svc.url}/app/contacts/new`)
    await page.getByLabel('Last name', { exact: true }).fill('Turing')
    await page.getByLabel('Customer tier', { exact: true }).click()
    await page.getByRole('option', { name: 'Bronze' }).click()
    // Meanwhile an administrator (another tab) drops the option the form still offers.
    const fields = await (await page.request.get(`${svc.url}/api/v1/custom-fields?kind=contact`)).json()
    const tier = fields.data.find((f: { name: string }) => f.name === 'customer_tier')
    const me = await (await page.request.get(`${svc.url}/api/v1/me`)).json()
    const changed = await page.request.patch(`${svc.url}/api/v1/custom-fields/${tier.id}`, { data: { options: ['Gold', 'Silver'] }, headers: { 'x-csrf-token': me.csrf_token, origin: svc.url } })
    expect(changed.status()).toBe(200)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Some values were not accepted. Fix the highlighted fields and save again.').waitFor()
    await page.getByText('Must be one of: Gold, Silver').waitFor()
    // The problem's own wording (its detail) is not shown.
    expect(await page.getByText('Invalid custom fields', { exact: false }).count()).toBe(0)
    await shot(page, 'record-form-server-error')
    await page.close()
  })

  it("tells custom field changes in a record's timeline, one line per field under its label, values as the page shows them", async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    const defs = [
      { name: 'tier', label: 'Account tier', type: 'picklist', options: ['Gold', 'Silver'] },
      { name: 'seats', label: 'Seats', type: 'number' },
      { name: 'renewal_on', label: 'Renewal date', type: 'date' },
      { name: 'vip', label: 'VIP', type: 'boolean' },
      { name: 'motto', label: 'Motto', type: 'text' },
    ]
    for (const d of defs) expect((await apiPost(page, svc.url, '/custom-fields', { kind: 'account', ...d })).status).toBe(201)
    const made = await apiPost(page, svc.url, '/accounts', {
      name: 'Timeline Traders',
      custom_fields: { tier: 'Silver', seats: 1200, renewal_on: '2027-01-31', vip: false, motto: 'Onwards', Legacy__c: { region: 'EMEA', codes: [1, 2] } },
    })
    expect(made.status).toBe(201)
    const me = await (await page.request.get(`${svc.url}/api/v1/me`)).json()
    const changed = await page.request.patch(`${svc.url}/api/v1/accounts/${made.json.id}`, {
      data: { custom_fields: { tier: 'Gold', seats: 1500, renewal_on: '2027-03-01', vip: true, motto: null, Legacy__c: { region: 'APAC', codes: [3] } } },
      headers: { 'x-csrf-token': me.csrf_token, origin: svc.url },
    })
    expect(changed.status()).toBe(200)

    await page.goto(`${svc.url}/app/accounts/${made.json.id}`)
    const timeline = page.getByRole('region', { name: 'Timeline' })
    await timeline.getByText('Changed 6 fields').waitFor()
    const lines = await timeline.locator('[data-entry="event"]').first().locator('.mantine-Group-root').allTextContents()
    // Dates read as the record page reads them, in the browser's locale.
    const day = (y: number, m: number, d: number) => page.evaluate(([y, m, d]) => new Date(y!, m! - 1, d).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }), [y, m, d])
    expect(lines).toEqual([
      'Account tierSilver→Gold',
      'Seats1,200→1,500',
      `Renewal date${await day(2027, 1, 31)}→${await day(2027, 3, 1)}`,
      'VIPNo→Yes',
      'MottoOnwards→empty',
      'Legacy__c{"codes":[1,2],"region":"EMEA"}→{"codes":[3],"region":"APAC"}',
    ])
    expect(await page.content()).not.toContain('[object Object]')
    await shot(page, 'record-timeline-custom-fields')
    await page.close()
  })

  it('deletes a field after confirmation', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.goto(`${svc.url}/app/settings/fields?kind=contact`)
    await page.getByRole('button', { name: 'Delete Seats' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete the field Seats?' })
    await confirm.getByText('Records keep what they hold', { exact: false }).waitFor()
    await shot(page, 'fields-delete-confirm')
    await confirm.getByRole('button', { name: 'Delete field' }).click()
    await confirm.waitFor({ state: 'detached' })
    await expect.poll(() => page.getByRole('table', { name: 'Contact fields' }).getByText('Seats', { exact: true }).count()).toBe(0)
    await page.close()
  })

  it('saw no 5xx and no page errors', () => {
    expect(serverErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
