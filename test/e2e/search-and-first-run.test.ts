/**
 * Browser end-to-end test of the command palette and the overview's first run: a fresh
 * organization sees the welcome panel pointing to migration and import; once it has records the
 * panel is gone, Ctrl+K opens the palette, typing finds records of several kinds grouped by kind,
 * the arrow keys move through them and Enter lands on the record's page.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { targets } from '../helpers/databases.ts'
import { apiPost, browserPerFile, completeFirstRun, shot, type E2eService } from './harness.ts'

const ADMIN = { org: 'Lovelace Engines', name: 'Ada Admin', email: 'ada@engines.test', password: 'correct horse battery' }
const poll = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 15_000 })

describe.each(await targets())('search palette and first run in the browser on %s', (target) => {
  const world = browserPerFile(target)
  let svc: E2eService
  let page: Page
  beforeAll(() => {
    ;({ svc, page } = world)
  })

  it('welcomes a new organization with the ways to bring records in', async () => {
    await completeFirstRun(page, svc.url, ADMIN)

    const welcome = page.getByRole('region', { name: 'Welcome to Cairn' })
    await welcome.waitFor()
    expect(await welcome.getByRole('link', { name: 'Start a migration' }).getAttribute('href')).toBe('/app/migration/new')
    expect(await welcome.getByRole('link', { name: 'Import contacts' }).getAttribute('href')).toBe('/app/contacts?import=1')
    await shot(page, 'overview-first-run')
    await welcome.getByRole('link', { name: 'Import contacts' }).click()
    await page.waitForURL(`${svc.url}/app/contacts?import=1`)
    // The link opens the contacts list with its import dialog open.
    const dialog = page.getByRole('dialog', { name: 'Import contacts' })
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('heading', { name: 'Contacts', level: 2 }).waitFor()
    await page.goBack()
    await page.getByRole('region', { name: 'Welcome to Cairn' }).getByRole('link', { name: 'Start a migration' }).click()
    await page.waitForURL(`${svc.url}/app/migration/new`)
  })

  it('hides the welcome once the organization has records', async () => {
    const created: Record<string, string> = {}
    for (const [key, path, body] of [
      ['acme', '/accounts', { name: 'Acme Corporation', domain: 'acme.example' }],
      ['labs', '/accounts', { name: 'Acme Labs', domain: 'labs.example' }],
      ['ada', '/contacts', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.example' }],
      ['case', '/cases', { subject: 'Acme printer jam' }],
    ] as const) {
      const res = await apiPost(page, svc.url, path, body)
      expect(res.status, JSON.stringify(res.json)).toBe(201)
      created[key] = res.json.id
    }
    await page.goto(`${svc.url}/app`)
    await poll(() => page.getByRole('link', { name: 'Accounts' }).last().textContent()).toContain('2')
    expect(await page.getByRole('region', { name: 'Welcome to Cairn' }).count()).toBe(0)
  })

  it('opens with Ctrl+K, finds records across kinds, moves with the arrows and opens with Enter', async () => {
    await page.keyboard.press('Control+K')
    const input = page.getByRole('combobox', { name: 'Search records' })
    await input.waitFor()
    await page.getByText('Find any record by name, email, domain or case number.').waitFor()
    await input.fill('acme')
    const results = page.getByRole('listbox', { name: 'Search results' })
    await poll(() => results.getByRole('option').count()).toBe(4)
    // Grouped by kind in the navigation's order, each group best first ("acme" is more of "Acme Labs").
    expect(await results.getByRole('group').evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label')))).toEqual(['Accounts', 'Contacts', 'Cases'])
    const selected = results.getByRole('option', { selected: true })
    await poll(() => selected.textContent()).toContain('Acme Labs')
    await page.keyboard.press('ArrowDown')
    await poll(() => selected.textContent()).toContain('Acme Corporation')
    await page.keyboard.press('ArrowDown')
    await poll(() => selected.textContent()).toContain('Ada Lovelace')
    expect(await selected.textContent()).toContain('ada@acme.example')
    await shot(page, 'search-palette')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/app\/contacts\/[^/]+$/)
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 2 }).waitFor()
    await poll(() => input.count()).toBe(0)
  })

  it('says when nothing matches, and opens from the header button too', async () => {
    await page.getByRole('banner').getByRole('button', { name: 'Search records' }).click()
    const input = page.getByRole('combobox', { name: 'Search records' })
    await input.fill('zzzz')
    await page.getByText('No records match “zzzz”.').waitFor()
    await shot(page, 'search-palette-empty')
    // A case number finds its case.
    await input.fill('1')
    await page.getByRole('option', { name: /Acme printer jam/ }).waitFor()
    await page.keyboard.press('Escape')
    await poll(() => input.count()).toBe(0)
  })

  it('saw no 5xx and no page errors', () => {
    expect(world.failures.serverErrors).toEqual([])
    expect(world.failures.pageErrors).toEqual([])
  })
})
