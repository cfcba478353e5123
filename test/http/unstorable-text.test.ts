/**
 * Text PostgreSQL cannot store (the NUL character, lone surrogates) is refused where it enters,
 * naming where it was, on every route and tool alike: a 400 on REST (body, query, path), a tool
 * error on MCP, a row's issue in a CSV import. Before, the same NUL was a 400 from a single create,
 * written as U+FFFD by a batch and by an upsert's path, and a lone surrogate became U+FFFD everywhere
 * (two different src_ids then collided).
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { runImports, startImport } from '../imports/helpers.ts'

describe.each(await targets())('text that cannot be stored on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })

  it.each([
    ['a NUL in a field', 'POST', '/api/v1/accounts', { name: 'a\u0000b' }, 'body', 'name', 'NUL'],
    ['a lone surrogate in a field', 'POST', '/api/v1/accounts', { name: 'a\ud800b' }, 'body', 'name', 'lone surrogate'],
    ['a lone surrogate in a src_id', 'POST', '/api/v1/accounts', { name: 'ok', src_id: 'x\udfff' }, 'body', 'src_id', 'lone surrogate'],
    ['a NUL in a batch item', 'POST', '/api/v1/accounts/batch', { operation: 'create', records: [{ name: 'ok' }, { name: 'a\u0000' }] }, 'body', 'records[1].name', 'NUL'],
    ['a NUL in a custom field value', 'POST', '/api/v1/accounts', { name: 'ok', custom_fields: { note: 'x\u0000' } }, 'body', 'custom_fields.note', 'NUL'],
    ['a NUL in a custom field key', 'POST', '/api/v1/accounts', { name: 'ok', custom_fields: { 'n\u0000': 1 } }, 'body', 'custom_fields', 'NUL'],
    ['a NUL in a src_id path', 'PUT', '/api/v1/accounts/by-src-id/a%00', { name: 'x' }, 'params', 'src_id', 'NUL'],
    ['a NUL in a list search', 'GET', '/api/v1/accounts?q=x%00', undefined, 'querystring', 'q', 'NUL'],
    ['a NUL in a search', 'GET', '/api/v1/search?q=a%00', undefined, 'querystring', 'q', 'NUL'],
  ] as const)('%s is a 400 naming it, and nothing is written', async (_label, method, url, payload, part, field, what) => {
    const admin = await createOrgWithAdmin(ctx.app)
    const res = await admin.request({ method, url, ...(payload ? { payload } : {}) })
    expect(res.statusCode, res.body).toBe(400)
    expect(json(res).detail).toContain(`Invalid ${part}: ${field}`)
    expect(json(res).detail).toContain(what)
    expect(json(res).errors).toEqual([expect.objectContaining({ field })])
    const stored = await sql<{ n: string }>`SELECT count(*) AS n FROM accounts WHERE org_id = ${admin.orgId}`.execute(ctx.app.db)
    expect(Number(stored.rows[0]!.n)).toBe(0)
  })

  it('judges a bearer token before the text: an unknown token with a NUL in its list query is a 401', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const unknownToken = await admin.request({ method: 'GET', url: '/api/v1/accounts?q=a%00', headers: { authorization: 'Bearer crm_at_unknown', cookie: '' } })
    expect(unknownToken.statusCode).toBe(401)
  })

  it('makes a CSV cell with such text an issue of its row, and imports the other rows', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    // (A file cannot carry a lone surrogate: its bytes are UTF-8, and a query string's are decoded as UTF-8 too.)
    const csv = 'name,src_id\r\nkept,A\r\n"a\u0000b",B\r\nalso kept,"C\u0000"\r\nlast,D\r\n'
    const started = await startImport(admin, { kind: 'accounts' }, csv)
    expect(started.statusCode, started.body).toBe(202)
    await runImports(ctx.app, target)
    const done = json(await admin.request({ url: `/api/v1/imports/${json(started).id}` }))
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed_with_errors', created: 2, failed: 2 })
    const issues = (await admin.request({ url: `/api/v1/imports/${done.id}/issues.csv` })).body
    expect(issues).toContain('3,name,name,must not contain the NUL character (U+0000)')
    expect(issues).toContain('4,src_id,src_id,must not contain the NUL character (U+0000)')
    const names = (await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${admin.orgId} ORDER BY name`.execute(ctx.app.db)).rows.map((r) => r.name)
    expect(names).toEqual(['kept', 'last'])
  })
})
