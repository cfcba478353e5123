/**
 * Saved views (docs/views.md): CRUD under /api/v1/views, private and shared, who may change them,
 * and their columns, filters and sort checked against the list's own parameters. On both databases.
 */
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { addMember, json, type Member } from '../helpers/build-app.ts'
import { api, obtainTokens, oauthHarnessPerFile, type OAuthHarness, type TestClient } from '../oauth/helpers.ts'

const VIEWS = '/api/v1/views'

describe.each(await targets())('saved views on %s', (target) => {
  let h: OAuthHarness
  let admin: Member
  let client: TestClient

  oauthHarnessPerFile(target, (...world) => ([h, admin, client] = world))

  const save = (as: Member, body: Record<string, unknown>) => as.request({ method: 'POST', url: VIEWS, payload: body })

  it('are saved, listed, changed and deleted', async () => {
    const created = await save(admin, {
      kind: 'opportunity',
      name: 'Big late-stage deals',
      columns: ['stage', 'amount', 'custom_fields.region'],
      filters: { 'stage[in]': 'proposal,negotiation', 'amount[gte]': '50000' },
      sort: '-amount',
    })
    expect(created.statusCode, created.body).toBe(201)
    const view = json(created)
    expect(view).toMatchObject({ kind: 'opportunity', name: 'Big late-stage deals', shared: false, mine: true, sort: '-amount', filters: { 'stage[in]': 'proposal,negotiation', 'amount[gte]': '50000' } })
    expect(created.headers.location).toBe(`${VIEWS}/${view.id}`)

    // The filters are the list's own parameters: they list as they are.
    const query = new URLSearchParams({ ...view.filters, sort: view.sort }).toString()
    expect((await admin.request({ url: `/api/v1/opportunities?${query}` })).statusCode).toBe(200)

    expect(json(await admin.request({ url: `${VIEWS}?kind=opportunity` })).data).toEqual([view])
    expect(json(await admin.request({ url: `${VIEWS}?kind=account` })).data).toEqual([])

    const changed = await admin.request({ method: 'PATCH', url: `${VIEWS}/${view.id}`, payload: { name: 'Late deals', sort: null, shared: true } })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(json(changed)).toMatchObject({ name: 'Late deals', sort: null, shared: true, columns: view.columns })

    expect((await admin.request({ method: 'DELETE', url: `${VIEWS}/${view.id}` })).statusCode).toBe(204)
    expect((await admin.request({ url: `${VIEWS}/${view.id}` })).statusCode).toBe(404)
  })

  it('refuse columns, filters and sorts the list does not have', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'account', name: 'x', columns: ['nope'] }, 'columns[0]'],
      [{ kind: 'account', name: 'x', filters: { stauts: 'x' } }, 'filters.stauts'],
      [{ kind: 'account', name: 'x', filters: { 'annual_revenue[gte]': 'lots' } }, 'filters.annual_revenue[gte]'],
      [{ kind: 'opportunity', name: 'x', filters: { 'stage[in]': 'won' } }, 'filters.stage[in]'],
      [{ kind: 'account', name: 'x', sort: 'website' }, 'sort'],
      [{ kind: 'pipeline', name: 'x', sort: 'name' }, 'sort'],
      [{ kind: 'account', name: '   ' }, 'name'],
      [{ kind: 'case_comment', name: 'x' }, 'kind'],
    ]
    for (const [body, field] of cases) {
      const res = await save(admin, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(json(res).code).toBe('validation_failed')
      expect(json(res).errors.map((e: { field: string }) => e.field), `${JSON.stringify(body)}: ${res.body}`).toContain(field)
    }
    const board = await save(admin, { kind: 'pipeline', name: 'My accounts', filters: { 'type[in]': 'New Business', 'close_date[lt]': '2027-01-01' } })
    expect(board.statusCode, board.body).toBe(201)
  })

  it('are private unless shared; only the owner (or an administrator, once shared) changes them', async () => {
    const member = await addMember(h.app, admin.orgId, 'member')
    const other = await addMember(h.app, admin.orgId, 'member')
    const mine = json(await save(member, { kind: 'lead', name: 'Mine', filters: { 'status[in]': 'new' } }))
    const team = json(await save(member, { kind: 'lead', name: 'Team', shared: true }))

    expect(json(await other.request({ url: `${VIEWS}?kind=lead` })).data.map((v: { name: string; mine: boolean }) => [v.name, v.mine])).toEqual([['Team', false]])
    expect((await other.request({ url: `${VIEWS}/${mine.id}` })).statusCode).toBe(404)
    expect((await other.request({ method: 'PATCH', url: `${VIEWS}/${mine.id}`, payload: { name: 'x' } })).statusCode).toBe(404)
    const refused = await other.request({ method: 'PATCH', url: `${VIEWS}/${team.id}`, payload: { name: 'x' } })
    expect(refused.statusCode).toBe(403)
    expect((await other.request({ method: 'DELETE', url: `${VIEWS}/${team.id}` })).statusCode).toBe(403)

    // An administrator may tidy a shared view, never read a private one.
    expect((await admin.request({ url: `${VIEWS}/${mine.id}` })).statusCode).toBe(404)
    expect((await admin.request({ method: 'PATCH', url: `${VIEWS}/${team.id}`, payload: { shared: false } })).statusCode).toBe(200)
    expect(json(await other.request({ url: `${VIEWS}?kind=lead` })).data).toEqual([])
    expect(json(await member.request({ url: VIEWS })).data.map((v: { name: string }) => v.name)).toEqual(['Mine', 'Team'])
  })

  it('need crm:read to read and crm:write to save', async () => {
    const readOnly = (await obtainTokens(h.app, admin, client, { scope: 'crm:read' })).access_token
    expect((await api(h.app, readOnly, { url: VIEWS })).statusCode).toBe(200)
    const refused = await api(h.app, readOnly, { method: 'POST', url: VIEWS, payload: { kind: 'account', name: 'x' } })
    expect(refused.statusCode).toBe(403)
    expect(json(refused).code).toBe('insufficient_scope')
    const writer = (await obtainTokens(h.app, admin, client, { scope: 'crm:read crm:write' })).access_token
    const saved = await api(h.app, writer, { method: 'POST', url: VIEWS, payload: { kind: 'account', name: 'From a token' } })
    expect(saved.statusCode, saved.body).toBe(201)
    expect(json(saved).mine).toBe(true)
  })
})
