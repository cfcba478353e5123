/**
 * Browser end-to-end test of views and standard picklists: on the accounts list a person filters by
 * industry (a standard picklist, the organization's options) and by account type, adds a column,
 * saves the result as a shared view, comes back to the whole list and picks the view again from
 * the switcher's "My views"; the account form offers industry as a picklist. The pipeline board
 * saves a view of its own, narrowed by an account.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the states there.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { apiPost, browserPerFile, pagesOf, shot, signIn } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe('saved views in the browser', () => {
  const world = browserPerFile('pglite')
  const { newPage, serverErrors, pageErrors } = pagesOf(() => world.browser)
  const url = () => world.svc.url

  beforeAll(async () => {
    await createOrganizationWithAdmin(world.svc.service.app!.db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
  })

  async function saveView(page: Page, name: string, shared: boolean) {
    await page.getByRole('button', { name: /^View: / }).click()
    await page.getByRole('menuitem', { name: 'Save as new view…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Save view' })
    await dialog.getByLabel('Name').fill(name)
    if (shared) await dialog.getByLabel('Share with everyone in the organization').check()
    await dialog.getByRole('button', { name: 'Save view' }).click()
  }

  it('filters accounts by picklists, saves a shared view and applies it again', async () => {
    const page = await newPage()
    await signIn(page, url(), 'ada@acme.test', PASSWORD)
    for (const [name, industry, type] of [
      ['Northwind Traders', 'Retail', 'Customer'],
      ['Contoso Retail', 'Retail', 'Prospect'],
      ['Fabrikam Energy', 'Energy', 'Customer'],
      ['Tailspin Retail Co', 'Retail', 'Customer'],
    ]) {
      expect((await apiPost(page, url(), '/accounts', { name, industry, type, billing_city: 'Lyon' })).status).toBe(201)
    }
    await page.goto(`${url()}/app/accounts`)
    await page.getByRole('link', { name: 'Fabrikam Energy' }).waitFor()

    await page.getByRole('button', { name: 'More filters' }).click()
    const filters = page.getByRole('dialog')
    await filters.getByRole('combobox', { name: 'Industry' }).click()
    await page.getByRole('option', { name: 'Retail', exact: true }).click()
    await filters.getByRole('combobox', { name: 'Type', exact: true }).click()
    await page.getByRole('option', { name: 'Customer', exact: true }).click()
    await page.keyboard.press('Escape')
    await page.waitForURL(/industry=Retail/)
    await page.getByRole('link', { name: 'Fabrikam Energy' }).waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'Contoso Retail' }).waitFor({ state: 'detached' })
    await page.getByRole('link', { name: 'Northwind Traders' }).waitFor()

    // A column the list does not show by default (Billing city is one of the defaults: choosing it
    // would take it away).
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('menuitem', { name: 'Annual revenue' }).click()
    await page.keyboard.press('Escape')
    await page.getByRole('columnheader', { name: 'Annual revenue' }).waitFor()

    await saveView(page, 'Retail customers', true)
    await page.getByRole('button', { name: 'View: Retail customers' }).waitFor()
    await shot(page, 'views-accounts-saved')

    // Back to everything, then the view again from the switcher.
    await page.getByRole('button', { name: 'View: Retail customers' }).click()
    await page.getByRole('menuitem', { name: 'All accounts' }).click()
    await page.getByRole('link', { name: 'Fabrikam Energy' }).waitFor()
    await page.getByRole('columnheader', { name: 'Annual revenue' }).waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'View: All accounts' }).click()
    await shot(page, 'views-switcher')
    await page.getByRole('menuitem', { name: 'Retail customers' }).click()
    await page.getByRole('link', { name: 'Fabrikam Energy' }).waitFor({ state: 'detached' })
    await page.getByRole('columnheader', { name: 'Annual revenue' }).waitFor()
    expect(await page.getByRole('link', { name: /Northwind Traders|Tailspin Retail Co/ }).count()).toBe(2)

    // The form offers industry as the organization's options.
    await page.goto(`${url()}/app/accounts/new`)
    await page.getByRole('combobox', { name: 'Industry' }).click()
    await page.getByRole('option', { name: 'Telecommunications' }).waitFor()
    await shot(page, 'views-account-form-picklist')
    await page.close()
    expect(serverErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it('saves a view of the pipeline board narrowed by account', async () => {
    const page = await newPage()
    await signIn(page, url(), 'ada@acme.test', PASSWORD)
    const acme = (await apiPost(page, url(), '/accounts', { name: 'Globex' })).json.id
    await apiPost(page, url(), '/opportunities', { name: 'Globex renewal', stage: 'proposal', account_id: acme, amount: '5000' })
    await apiPost(page, url(), '/opportunities', { name: 'Other deal', stage: 'proposal', amount: '700' })
    await page.goto(`${url()}/app/pipeline?account_id=${acme}`)
    await page.getByText('Globex renewal').waitFor()
    await page.getByText('Other deal').waitFor({ state: 'detached' })
    await saveView(page, 'Globex deals', false)
    await page.getByRole('button', { name: 'View: Globex deals' }).waitFor()
    await shot(page, 'views-pipeline')
    await page.close()
    expect(serverErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
