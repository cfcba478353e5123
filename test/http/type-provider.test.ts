/**
 * Routes take their request types from their schemas (src/http/type-provider.ts). The types must say
 * what handlers really get: validation fills in no defaults, so a defaulted property stays optional;
 * a kind's generated body is an object of unknown values. The type checks run with the type check
 * of the project; the requests show the values that the types describe.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import Fastify from 'fastify'
import { pageQuerySchema } from '../../src/http/schemas.ts'
import type { TypedRoutes } from '../../src/http/type-provider.ts'
import { validatorCompiler } from '../../src/http/validation.ts'
import { createBodySchema, kindsByName } from '../../src/records/contracts.ts'

/** What a route with schema S gets as its body, query or params. */
type RequestPart<S> = (TypedRoutes & { schema: S })['validator']

const CURSOR = '0190d3c0-0000-7000-8000-000000000000'

describe('request types from route schemas', () => {
  it('leave a defaulted limit optional: a page query without one arrives without one', async () => {
    expectTypeOf<RequestPart<typeof pageQuerySchema>>().toEqualTypeOf<{ limit?: number; cursor?: string }>()
    const app = Fastify().withTypeProvider<TypedRoutes>()
    app.setValidatorCompiler(validatorCompiler)
    const seen: unknown[] = []
    app.get('/page', { schema: { querystring: pageQuerySchema } }, async (request) => {
      seen.push(request.query)
      return {}
    })
    expect((await app.inject({ url: `/page?cursor=${CURSOR}` })).statusCode).toBe(200)
    expect((await app.inject({ url: '/page?limit=7' })).statusCode).toBe(200)
    expect(seen).toEqual([{ cursor: CURSOR }, { limit: 7 }])
    await app.close()
  })

  it("type a kind's generated body as an object of unknown values", () => {
    expectTypeOf<RequestPart<ReturnType<typeof createBodySchema>>>().toEqualTypeOf<{ [field: string]: unknown }>()
    expect(createBodySchema(kindsByName.account).type).toBe('object')
  })
})
