/**
 * Bulk creates splice each event's body from the record's JSON text as the database wrote it
 * (webhook-events.ts, createdEventBodies); single creates build it from the parsed record. For
 * every kind, with custom fields and decimals, both bodies must be the same JSON: the envelope's
 * keys in order, and the record as `GET` answers it. Kinds with amounts (hidden without erp:read)
 * keep the parsed path, and an endpoint without erp:read still gets them hidden.
 */
import { describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { minimalBodies, topLevelKinds } from '../helpers/samples.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'
import { EVENT_CATALOGUE } from '../../src/events/event-catalogue.ts'

describe.each(await targets())('created events of bulk and single writes on %s', (target) => {
  const ctx = appPerFile(target)

  it('are the same JSON whichever path built them', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    for (const body of [
      { kind: 'contact', name: 'score', label: 'Score', type: 'number' },
      { kind: 'contact', name: 'nickname', label: 'Nickname', type: 'text' },
    ]) {
      const res = await admin.request({ method: 'POST', url: '/api/v1/custom-fields', payload: body })
      expect(res.statusCode, res.body).toBe(201)
    }
    const extra: Partial<Record<string, Record<string, unknown>>> = {
      contact: { email: 'zoe@example.com', first_name: 'Zoë "Q"', custom_fields: { score: 12.5, nickname: 'Jo "the" \u2028 one' } },
      opportunity: { amount: 1250.5 },
    }
    for (const kind of topLevelKinds.filter((k) => k in EVENT_CATALOGUE)) {
      const path = kindsByName[kind].path
      const payload = { ...minimalBodies[kind], ...extra[kind] }
      const single = await admin.request({ method: 'POST', url: `/api/v1/${path}`, payload })
      expect(single.statusCode, single.body).toBe(201)
      const batch = await admin.request({ method: 'POST', url: `/api/v1/${path}/batch`, payload: { operation: 'create', records: [payload] } })
      expect(batch.statusCode, batch.body).toBe(200)
      for (const id of [json(single).id, json(batch).data[0].id]) {
        const rows = (await sql<{ id: string; body: string }>`SELECT id, body FROM events WHERE org_id = ${admin.orgId} AND record_id = ${id}`.execute(ctx.app.db)).rows
        expect(rows).toHaveLength(1)
        const event = JSON.parse(rows[0].body)
        expect(Object.keys(event)).toEqual(['id', 'type', 'timestamp', 'organization_id', 'actor', 'operation_id', 'data'])
        expect(event).toMatchObject({ id: rows[0].id, type: `${kind}.created`, organization_id: admin.orgId })
        expect(Number.isNaN(Date.parse(event.timestamp))).toBe(false)
        expect(Object.keys(event.data)).toEqual(['object'])
        const read = await admin.request({ url: `/api/v1/${path}/${id}` })
        expect(event.data.object, kind).toEqual(json(read))
      }
    }
  })
})
