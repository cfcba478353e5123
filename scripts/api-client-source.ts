/**
 * The text of web/src/api/cairn-api.d.ts: the app is built on an empty embedded database in memory,
 * its OpenAPI document taken from @fastify/swagger and turned into TypeScript types by
 * openapi-typescript. Paths and types are sorted, so the same routes give the same file whatever
 * order they were registered in, and concurrent route changes merge as plain line changes.
 */
import path from 'node:path'
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { openEmbedded } from '../src/db/connect.ts'
import { migrateToLatest } from '../src/db/migrate.ts'

export const API_CLIENT_FILE = path.resolve(import.meta.dirname, '../web/src/api/cairn-api.d.ts')

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The OpenAPI document exactly as /api/v1/openapi.json serves it. */
export async function buildOpenApiDocument(): Promise<OpenAPI3> {
  const database = await openEmbedded(null)
  try {
    await migrateToLatest(database)
    // PUBLIC_URL shows only in `servers` and the OAuth URLs, which no generated type reads.
    const config = loadConfig({ PORT: '0', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' })
    const app = await buildApp({ config, database, logger: false })
    try {
      await app.ready()
      return structuredClone(app.swagger()) as OpenAPI3
    } finally {
      await app.close()
    }
  } finally {
    await database.close()
  }
}

export async function apiClientSource(document?: OpenAPI3): Promise<string> {
  const doc = document ?? (await buildOpenApiDocument())
  doc.paths = sortedKeys(doc.paths ?? {})
  const ast = await openapiTS(doc, { alphabetize: true, silent: true })
  return COMMENT_HEADER + '// Generated from the OpenAPI document by `npm run generate:client` (scripts/generate-api-client.ts).\n\n' + astToString(ast)
}
