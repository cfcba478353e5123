/**
 * How routes get their request types from their JSON Schemas: `app.withTypeProvider<TypedRoutes>()`
 * makes `request.body`, `query` and `params` what json-schema-to-ts reads from the route's `as const`
 * schemas, so handlers need no casts and a schema change shows where the code must follow.
 */
import type { FastifyTypeProvider } from 'fastify'
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'

export interface TypedRoutes extends FastifyTypeProvider {
  // A property with a `default` stays optional: validation.ts does not fill defaults in (useDefaults
  // false), so the handler sees what the client sent and supplies the default itself.
  validator: this['schema'] extends JSONSchema ? FromSchema<this['schema'], { keepDefaultedPropertiesOptional: true }> : unknown
  // Answers are not typed from their schemas: record routes send JSON text built by the database
  // (record-sql.ts), which no schema type describes, and a typed 204 would demand `send(null)`.
  serializer: unknown
}
