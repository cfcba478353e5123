/**
 * `npm run generate:client`: writes web/src/api/cairn-api.d.ts, the types of the typed API client
 * (openapi-fetch), from the OpenAPI document the routes generate. test/openapi-client.test.ts fails
 * while the committed file differs from what this writes.
 */
import fs from 'node:fs'
import { API_CLIENT_FILE, apiClientSource } from './api-client-source.ts'

fs.writeFileSync(API_CLIENT_FILE, await apiClientSource())
console.log(`Wrote ${API_CLIENT_FILE}`)
