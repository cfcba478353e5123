/**
 * Required text through the MCP write tools, as REST has it (test/records/required-text.test.ts):
 * a blank value (whitespace or invisible characters only) is a tool error with REST's 400 naming the
 * argument, and nothing is written; surrounding whitespace is removed from what is stored.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { call, callError, connectWithToken, mcpWorldPerFile, tokenFor } from './helpers.ts'

const BLANKS = ['', '  ', '\t\n', '\u00a0', '\u3000', '\u200b', '\u2060\ufeff', '\u2800']

describe.each(await targets())('required text through MCP tools on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it('refuses blank names in every write tool, and stores trimmed ones', async () => {
    const client = await connectWithToken(world.mcpUrl, await tokenFor(world, 'a', 'crm:read crm:write erp:read'))
    try {
      const account = await call(client, 'create_record', { kind: 'account', fields: { name: '  Acme \u00a0' } })
      expect(account.name).toBe('Acme')
      const kase = await call(client, 'create_record', { kind: 'case', fields: { subject: 'Printer on fire' } })
      const lead = await call(client, 'create_record', { kind: 'lead', fields: { last_name: 'Okafor', company: 'Initech' } })
      for (const blank of BLANKS) {
        const label = JSON.stringify(blank)
        const refusals = [
          [await callError(client, 'create_record', { kind: 'contact', fields: { last_name: blank } }), 'fields.last_name'],
          [await callError(client, 'create_record', { kind: 'lead', fields: { last_name: 'Lee', company: blank } }), 'fields.company'],
          [await callError(client, 'update_record', { kind: 'account', id: account.id, fields: { name: blank } }), 'fields.name'],
          [await callError(client, 'upsert_record', { kind: 'product', src_id: 'P-1', fields: { name: blank } }), 'fields.name'],
          [await callError(client, 'batch_write_records', { kind: 'case', operation: 'update', records: [{ id: kase.id, subject: blank }] }), 'records[0].subject'],
          [await callError(client, 'add_case_comment', { case_id: kase.id, body: blank }), 'body'],
          [await callError(client, 'convert_lead', { lead_id: lead.id, opportunity_name: blank }), 'opportunity_name'],
        ] as const
        for (const [error, field] of refusals) {
          expect(error, `${field} ${label}`).toMatchObject({ status: 400, code: 'validation_failed' })
          expect(error.errors?.map((e) => [e.field.replace(/^fields\./, ''), e.message]), `${field} ${label}`).toEqual([[field.replace(/^fields\./, ''), 'cannot be blank']])
        }
      }
      const stored = await sql<{ n: number }>`SELECT (SELECT count(*) FROM contacts WHERE org_id = ${world.a.orgId}) + (SELECT count(*) FROM products WHERE org_id = ${world.a.orgId}) + (SELECT count(*) FROM case_comments WHERE org_id = ${world.a.orgId}) AS n`.execute(world.svc.app.db)
      expect(Number(stored.rows[0].n)).toBe(0)
      const names = await sql<{ name: string }>`SELECT name FROM accounts WHERE org_id = ${world.a.orgId}`.execute(world.svc.app.db)
      expect(names.rows).toEqual([{ name: 'Acme' }])
      const upserted = await call(client, 'upsert_record', { kind: 'product', src_id: 'P-1', fields: { name: '\tWidget\n' } })
      expect(upserted.record.name).toBe('Widget')
    } finally {
      await client.close()
    }
  }, 120_000)
})
