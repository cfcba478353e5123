/**
 * A small, realistic CRM for the browser tests of the record pages, lists and the pipeline board,
 * written through the REST API with the signed-in browser's session (so through every real layer).
 */
import type { Page } from 'playwright-core'
import { apiPost } from './harness.ts'

export interface SeededCrm {
  account: { id: string; name: string }
  contacts: { id: string; name: string }[]
  opportunities: { id: string; name: string; stage: string; amount: string }[]
  caseId: string
}

async function create(page: Page, url: string, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await apiPost(page, url, path, body)
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json
}

async function patch(page: Page, url: string, path: string, body: Record<string, unknown>): Promise<void> {
  const me = await page.request.get(`${url}/api/v1/me`)
  const csrf = ((await me.json()) as { csrf_token: string }).csrf_token
  const res = await page.request.patch(`${url}/api/v1${path}`, { data: body, headers: { 'x-csrf-token': csrf, origin: url } })
  if (res.status() !== 200) throw new Error(`PATCH ${path}: ${res.status()} ${await res.text()}`)
}

const DEALS: [string, string, string, string][] = [
  ['Northwind renewal 2027', 'negotiation', '84000', '2026-12-15'],
  ['Northwind EMEA rollout', 'proposal', '126500', '2027-01-31'],
  ['Support add-on', 'qualification', '12000', '2026-12-20'],
  ['Analytics pilot', 'prospecting', '8500', '2027-02-28'],
  ['Warehouse scanners', 'needs_analysis', '43250', '2027-01-15'],
  ['Data migration services', 'closed_won', '19800', '2026-10-30'],
  ['Legacy ERP bridge', 'closed_lost', '56000', '2026-09-12'],
]

export async function seedCrm(page: Page, url: string): Promise<SeededCrm> {
  const account = await create(page, url, '/accounts', {
    name: 'Northwind Traders',
    industry: 'Retail',
    type: 'Customer',
    phone: '+1 206 555 0100',
    website: 'https://northwind.example',
    annual_revenue: 48000000,
    billing_city: 'Seattle',
    billing_country: 'USA',
  })
  for (const [name, industry, city] of [
    ['Contoso Pharmaceuticals', 'Healthcare', 'Boston'],
    ['Fabrikam Robotics', 'Manufacturing', 'Detroit'],
    ['Tailspin Toys', 'Retail', 'Portland'],
    ['Adventure Works Cycles', 'Retail', 'Denver'],
  ]) {
    await create(page, url, '/accounts', { name, industry, billing_city: city })
  }
  const contacts = []
  for (const [first, last, title, email] of [
    ['Nancy', 'Davolio', 'VP Operations', 'nancy@northwind.example'],
    ['Andrew', 'Fuller', 'Head of IT', 'andrew@northwind.example'],
    ['Janet', 'Leverling', 'Procurement lead', 'janet@northwind.example'],
  ]) {
    const c = await create(page, url, '/contacts', { first_name: first, last_name: last, title, email, account_id: account.id, phone: '+1 206 555 0142' })
    contacts.push({ id: c.id, name: `${first} ${last}` })
  }
  const opportunities = []
  for (const [name, stage, amount, close] of DEALS) {
    const o = await create(page, url, '/opportunities', { name, stage, amount, close_date: close, account_id: account.id, probability: 40 })
    opportunities.push({ id: o.id, name, stage, amount })
  }
  const kase = await create(page, url, '/cases', {
    subject: 'Scanner sync fails after firmware update',
    status: 'working',
    priority: 'high',
    account_id: account.id,
    contact_id: contacts[0]!.id,
    description: 'Handheld scanners in the Seattle warehouse stop syncing after the 4.2 firmware update.',
  })
  await create(page, url, `/cases/${kase.id}/comments`, { body: 'Reproduced on two devices. Rolling back to 4.1 restores sync.', is_public: false })
  await create(page, url, `/cases/${kase.id}/comments`, { body: 'We found the cause and a fix ships Friday. Thanks for your patience, Nancy!', is_public: true })
  await create(page, url, '/activities', { kind: 'call', subject: 'Renewal kickoff call with Nancy', status: 'completed', account_id: account.id, contact_id: contacts[0]!.id })
  await create(page, url, '/activities', { kind: 'email', subject: 'Sent EMEA rollout proposal', status: 'completed', account_id: account.id })
  await create(page, url, '/activities', { kind: 'task', subject: 'Prepare pricing for negotiation', status: 'open', priority: 'high', due_date: '2026-12-01', account_id: account.id })
  await create(page, url, '/activities', { kind: 'call', subject: 'Walkthrough of the scanner logs', status: 'completed', case_id: kase.id, account_id: account.id })
  // A change, so the account's history has more than its creation.
  await patch(page, url, `/accounts/${account.id}`, { phone: '+1 206 555 0199', type: 'Partner' })
  return { account: { id: account.id, name: account.name }, contacts, opportunities, caseId: kase.id }
}
