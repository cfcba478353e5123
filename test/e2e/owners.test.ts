/**
 * Browser end-to-end test of owners and of converting a lead into what exists: a list's Owner
 * column and "My records" filter, the owner picker of a new record's form (the creator first), the
 * pipeline board's owner filter and its cards' initials, and the convert dialog that offers the
 * account matching the lead's e-mail domain and attaches the lead to it without an opportunity.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the list, the board and the dialog there.
 */
import { expect, it, describe } from 'vitest'
import { addUserToOrganization, createOrganizationWithAdmin } from '../../src/orgs/index.ts'
import { targets } from '../helpers/databases.ts'
import { apiPost, browserPerFile, shot, signIn } from './harness.ts'

const PASSWORD = 'correct horse battery'
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 })

describe.each(await targets())('owners and lead conversion in the browser on %s', (target) => {
  const world = browserPerFile(target)

  it('shows, filters and sets owners; converts a lead into the matching account', async () => {
    const { page, svc } = world
    const db = svc.service.app!.db
    const { orgId } = await createOrganizationWithAdmin(db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    const grace = await addUserToOrganization(db, orgId, { email: 'grace@acme.test', password: PASSWORD, role: 'member', name: 'Grace Hopper' })
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await apiPost(page, svc.url, path, body)
      expect(res.status, JSON.stringify(res.json)).toBe(201)
      return res.json
    }
    const engines = await post('/accounts', { name: 'Analytical Engines', domain: 'ae.test', industry: 'Machinery' })
    await post('/accounts', { name: 'Difference Works', industry: 'Manufacturing', owner_id: grace.userId })
    await post('/accounts', { name: 'Jacquard Looms', industry: 'Apparel', owner_id: null })
    await post('/opportunities', { name: 'Engine order', stage: 'proposal', amount: '48000', account_id: engines.id })
    await post('/opportunities', { name: 'Compiler licence', stage: 'proposal', amount: '12500', owner_id: grace.userId })

    // The list: an Owner column with names, and "My records".
    await page.goto(`${svc.url}/app/accounts`)
    const table = page.getByRole('table')
    await table.getByText('Grace Hopper').waitFor()
    await table.getByText('(you)').first().waitFor()
    await page.getByLabel('Owner', { exact: true }).click()
    await page.getByRole('option', { name: 'My records' }).click()
    await poll(async () => page.url()).toContain('owner_id=me')
    await poll(() => table.getByRole('link').allTextContents()).toEqual(['Analytical Engines'])
    await shot(page, 'owners-accounts-mine')
    await page.getByLabel('Owner', { exact: true }).click()
    await page.getByRole('option', { name: 'Unassigned' }).click()
    await poll(() => table.getByRole('link').allTextContents()).toEqual(['Jacquard Looms'])

    // A new record's form starts with its creator as the owner; another member can be chosen.
    await page.goto(`${svc.url}/app/accounts/new`)
    const owner = page.getByLabel('Owner', { exact: true })
    await poll(() => owner.inputValue()).toBe('Ada Admin (you)')
    await page.getByRole('textbox', { name: 'Name' }).fill('Babbage Trust')
    await owner.click()
    await page.getByRole('option', { name: 'Grace Hopper' }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/\/app\/accounts\/[0-9a-f-]{36}$/)
    await page.getByText('Grace Hopper').first().waitFor()
    const created = (await (await page.request.get(`${svc.url}/api/v1/accounts?q=Babbage`)).json()) as { data: { owner_id: string }[] }
    expect(created.data[0]!.owner_id).toBe(grace.userId)

    // The pipeline board: initials on the cards, and one owner's board.
    await page.goto(`${svc.url}/app/pipeline`)
    const proposal = page.locator('section[data-stage="proposal"]')
    await proposal.getByLabel('Owner: Grace Hopper').waitFor()
    await proposal.getByLabel('Owner: Ada Admin').waitFor()
    await page.getByLabel('Owner', { exact: true }).click()
    await page.getByRole('option', { name: 'Grace Hopper' }).click()
    await poll(() => proposal.getByRole('link').allTextContents()).toEqual(['Compiler licence'])
    await proposal.getByText('1', { exact: true }).first().waitFor()
    await shot(page, 'owners-pipeline-grace')

    // Converting a lead: the account of the lead's e-mail domain is offered first and chosen.
    const lead = await post('/leads', { first_name: 'Augusta', last_name: 'King', company: 'Analytical Engines', email: 'augusta@ae.test' })
    await page.goto(`${svc.url}/app/leads/${lead.id}`)
    await page.getByRole('button', { name: 'Convert', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Convert lead' })
    const useEngines = dialog.getByRole('radio', { name: /Use Analytical Engines/ })
    await useEngines.waitFor()
    await poll(() => useEngines.isChecked()).toBe(true)
    await dialog.getByText('email domain').first().waitFor()
    await dialog.getByRole('radio', { name: /Create a new contact/ }).waitFor()
    await dialog.getByLabel('Create an opportunity').uncheck()
    await shot(page, 'owners-convert-lead')
    await dialog.getByRole('button', { name: 'Convert lead' }).click()
    await page.getByText('Attached to an existing account.').waitFor()
    const converted = (await (await page.request.get(`${svc.url}/api/v1/leads/${lead.id}`)).json()) as Record<string, unknown>
    expect(converted).toMatchObject({ status: 'converted', converted_account_id: engines.id, converted_opportunity_id: null })
    const accounts = (await (await page.request.get(`${svc.url}/api/v1/accounts/count`)).json()) as { count: number }
    expect(accounts.count).toBe(4)
    expect(world.failures.serverErrors).toEqual([])
    expect(world.failures.pageErrors).toEqual([])
  })
})
