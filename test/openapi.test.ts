import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createTestDatabase, type TestDatabase } from './helpers/databases.ts'
import { buildTestApp } from './helpers/build-app.ts'
import { recordKinds } from '../src/records/kinds/index.ts'

describe('OpenAPI document and reference', () => {
  let tdb: TestDatabase
  let app: FastifyInstance
  beforeAll(async () => {
    tdb = await createTestDatabase('pglite')
    app = await buildTestApp(tdb.database)
  })
  afterAll(async () => {
    await app?.close()
    await tdb?.drop()
  })

  it('is OpenAPI 3.1, generated from the route schemas, without auth', async () => {
    const res = await app.inject({ url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.1.0')
    for (const kind of recordKinds.filter((k) => k.name !== 'case_comment')) {
      expect(doc.paths[`/api/v1/${kind.path}`], kind.path).toHaveProperty('get')
      expect(doc.paths[`/api/v1/${kind.path}`], kind.path).toHaveProperty('post')
      expect(doc.paths[`/api/v1/${kind.path}/{id}`], kind.path).toHaveProperty('patch')
    }
    expect(doc.paths['/api/v1/cases/{id}/comments']).toHaveProperty('post')
    expect(doc.paths['/api/v1/leads/{id}/convert']).toHaveProperty('post')
    const list = doc.paths['/api/v1/opportunities'].get
    const limit = list.parameters.find((p: any) => p.name === 'limit')
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 })
    expect(list.responses['200'].content['application/json'].schema.properties).toHaveProperty('next_cursor')
    // Pages and health are not part of the API document.
    expect(doc.paths['/sign-in']).toBeUndefined()
  })

  it('documents Idempotency-Key on every write under /api/v1 and Idempotent-Replayed on the answers it keeps', async () => {
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json()
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { maxLength: 255 } })
    let writes = 0
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const keyed = (operation.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey')
        if (!path.startsWith('/api/v1/') || !['post', 'patch', 'put', 'delete'].includes(method)) {
          expect(keyed, `${method} ${path}`).toBe(false)
          continue
        }
        writes++
        expect(keyed, `${method} ${path}`).toBe(true)
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['409', '422']))
        const success = Object.keys(operation.responses).find((s) => s.startsWith('2'))!
        expect(operation.responses[success].headers, `${method} ${path}`).toHaveProperty('Idempotent-Replayed')
      }
    }
    expect(writes).toBeGreaterThan(30)
  })

  it('serves a browsable reference at /docs', async () => {
    const res = await app.inject({ url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('swagger-ui')
  })
})
