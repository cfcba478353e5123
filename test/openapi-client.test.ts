import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { API_CLIENT_FILE, apiClientSource } from '../scripts/api-client-source.ts'

describe('The typed API client (web/src/api/cairn-api.d.ts)', () => {
  it('is what the routes generate now', { timeout: 120_000 }, async () => {
    const generated = await apiClientSource()
    const committed = fs.existsSync(API_CLIENT_FILE) ? fs.readFileSync(API_CLIENT_FILE, 'utf8') : ''
    if (committed === generated) return
    // A message naming the first changed line: a 10,000-line diff helps no one.
    const a = committed.split('\n')
    const b = generated.split('\n')
    let line = 0
    while (line < a.length && a[line] === b[line]) line++
    expect.fail(`web/src/api/cairn-api.d.ts is stale (first difference at line ${line + 1}: ${JSON.stringify(b[line] ?? '<end of file>')}). Run npm run generate:client and commit the result.`)
  })
})
