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
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OpportunityPage' })
    expect(doc.components.schemas.OpportunityPage.properties).toHaveProperty('next_cursor')
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

  it('names every body and answer in components/schemas and refers to them by $ref', async () => {
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json()
    const schemas = doc.components.schemas
    for (const name of ['Account', 'AccountCreate', 'AccountUpdate', 'AccountPage', 'AccountBatch', 'AccountWritten', 'CaseComment', 'Problem', 'Webhook', 'Migration']) {
      expect(schemas, name).toHaveProperty(name)
    }
    expect(schemas.AccountPage.properties.data.items).toEqual({ $ref: '#/components/schemas/Account' })
    const accounts = doc.paths['/api/v1/accounts']
    expect(accounts.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AccountCreate' })
    expect(accounts.get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AccountPage' })
    expect(doc.paths['/api/v1/accounts/{id}'].patch.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AccountUpdate' })
    expect(doc.paths['/api/v1/accounts/batch'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/AccountBatch' })
    const refs = new Set<string>()
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const bodies = [operation.requestBody, ...Object.values<any>(operation.responses)]
        for (const { content } of bodies.filter(Boolean)) {
          for (const [type, media] of Object.entries<any>(content ?? {})) {
            if (!type.includes('json')) continue
            expect(media.schema, `${method} ${path} ${type}`).toHaveProperty('$ref')
            refs.add(media.schema.$ref)
          }
        }
      }
    }
    for (const ref of refs) expect(schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined()
    // Components hold no schema twice: a record appears inside its page by reference.
    expect(JSON.stringify(schemas.AccountPage)).not.toContain('billing_city')
  })

  it('gives every operation a unique operationId that reads as a method name', async () => {
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json()
    const ids: string[] = []
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z]+(?:[A-Z][a-z]*)+$/)
        ids.push(operation.operationId)
      }
    }
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual(
      expect.arrayContaining([
        'listAccounts',
        'getAccount',
        'createAccount',
        'updateAccount',
        'deleteAccount',
        'batchAccounts',
        'upsertAccountBySrcId',
        'listOpportunities',
        'convertLead',
        'escalateCase',
        'listCaseComments',
        'createCaseComment',
        'batchCaseComments',
        'listWebhooks',
        'getMigration',
      ]),
    )
    expect(doc.paths['/api/v1/case-comments/{id}'].get.operationId).toBe('getCaseComment')
  })

  it('serves a browsable reference at /docs', async () => {
    const res = await app.inject({ url: '/docs/' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('swagger-ui')
  })
})
