/**
 * Every tool of the MCP server, through the SDK client, given edge values where it reads arguments:
 * each top-level argument in turn, and the `filters` and `fields` of the record tools. No call ends
 * in an internal error: what REST answers as a 4xx problem, a tool answers as a tool error with the
 * same status (a NUL in search_records' `q` was an internal error until both shared one mapping).
 * Each tool's call is also sent as bytes no encoder makes (nested too deep, not UTF-8, cut short):
 * a JSON-RPC parse error, never an internal one.
 */
import { describe, expect, it } from 'vitest'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { targets } from '../helpers/databases.ts'
import { callError, connectWithToken, MCP_HEADERS, mcpWorldPerFile, tokenFor } from './helpers.ts'

const EDGE_VALUES: unknown[] = ['', '\u0000', 'x'.repeat(5000), '9'.repeat(400), '1e400', '2026-02-30', '0000-01-01', '0000-01-01T00:00:00Z', -1, 1e308, 1.5, true, null, [], [null], {}, { a: { b: {} } }, '0190d6f0-0000-7000-8000-000000000000']
const FILTERS = ['stage', 'amount[gte]', 'close_date[lt]', 'created_at[gte]', 'probability[gte]', 'case_number[gt]', 'status[in]', 'custom_fields.x']
const FIELDS = ['name', 'status', 'stage', 'currency', 'amount', 'close_date', 'probability', 'account_id', 'custom_fields', 'src_id']

type Schema = Record<string, any>

/** Arguments the schema accepts, as plain as they get. */
function plainValue(s: Schema | undefined, depth = 0): unknown {
  if (!s || depth > 4) return null
  if (s.anyOf || s.oneOf) return plainValue((s.anyOf ?? s.oneOf)[0], depth + 1)
  if (s.enum) return s.enum[0]
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type
  if (type === 'object' || s.properties) return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, plainValue(v as Schema, depth + 1)]))
  if (type === 'array') return [plainValue(s.items, depth + 1)]
  if (type === 'integer' || type === 'number') return s.minimum ?? 1
  if (type === 'boolean') return true
  return 'x'
}

describe.each(await targets())('edge arguments on every MCP tool on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it('never end in an internal error', async () => {
    const token = await tokenFor(world, 'a', 'crm:read crm:write erp:read')
    const client = await connectWithToken(world.mcpUrl, token)
    try {
      const { tools } = await client.listTools()
      let calls = 0
      for (const tool of tools) {
        const base = plainValue(tool.inputSchema as Schema) as Record<string, unknown>
        const variants: Array<Record<string, unknown>> = []
        for (const key of Object.keys(base)) for (const value of EDGE_VALUES) variants.push({ ...base, [key]: value })
        if ('kind' in base) {
          for (const kind of ['opportunity', 'case']) {
            for (const f of FILTERS) for (const value of EDGE_VALUES) variants.push({ ...base, kind, filters: { [f]: value } })
            for (const f of FIELDS) for (const value of EDGE_VALUES) variants.push({ ...base, kind, fields: { name: 'n', subject: 's', [f]: value } })
          }
        }
        for (const args of variants) {
          calls++
          const res = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult
          const error = (res.structuredContent as { error?: { status: number } } | undefined)?.error
          if (res.isError) expect(error?.status, `${tool.name} ${JSON.stringify(args).slice(0, 300)}: ${JSON.stringify(res.content).slice(0, 300)}`).toBeLessThan(500)
        }
        // The call as bytes no encoder makes: an argument nested 8,000 levels deep (a recursive walk
        // overflowed the stack), bytes that are not UTF-8, JSON cut short. Each is a JSON-RPC parse
        // error (400, -32700); an argument nested 40 levels, within the limit, reaches the tool.
        const first = Object.keys(base)[0]
        if (first === undefined) continue
        const [pre, post] = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: { ...base, [first]: '@@' } } }).split('"@@"')
        for (const [label, body] of [
          ['nested 8,000 deep', `${pre}${'['.repeat(8000)}${']'.repeat(8000)}${post}`],
          ['not UTF-8', Buffer.concat([Buffer.from(`${pre}"a`), Buffer.from([0xc3, 0x28]), Buffer.from(`"${post}`)])],
          ['cut short', `${pre}"x"${post}`.slice(0, 40)],
        ] as const) {
          calls++
          const res = await fetch(world.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${token}` }, body: typeof body === 'string' ? body : new Uint8Array(body) })
          expect(res.status, `${tool.name} ${label}`).toBe(400)
          expect((await res.json()).error?.code, `${tool.name} ${label}`).toBe(-32700)
        }
        calls++
        const within = (await client.callTool({ name: tool.name, arguments: { ...base, [first]: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) } })) as CallToolResult
        if (within.isError) expect((within.structuredContent as { error?: { status: number } }).error?.status, `${tool.name} nested 40 deep`).toBeLessThan(500)
      }
      expect(calls).toBeGreaterThan(3_000)
      // The case that was an internal error: a NUL to search for is REST's 400.
      const nul = await callError(client, 'search_records', { q: 'a\u0000b' })
      expect(nul.status).toBe(400)
      expect(nul.detail).toContain('NUL')
      // Text that cannot be stored is refused before the tool runs, naming the argument.
      const field = await callError(client, 'create_record', { kind: 'account', fields: { name: 'a\u0000b' } })
      expect(field).toMatchObject({ status: 400, errors: [{ field: 'fields.name', message: 'must not contain the NUL character (U+0000)' }] })
    } finally {
      await client.close()
    }
  }, 300_000)
})
