/**
 * A second, independent MCP client: the MCP Inspector's CLI (`mcp-inspector-cli --cli`), run as a
 * child process against the live service with a bearer header. It lists the tools and calls one;
 * without the header it is refused.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { mcpWorldPerFile, tokenFor } from './helpers.ts'

const run = promisify(execFile)
const BIN = path.resolve('node_modules/.bin')
// inspector-cli 1.0.3 tests for "../package.json" relative to the working directory but imports it
// relative to its own build/ folder: run it from that folder so both resolve to its package.json.
const CWD = path.resolve('node_modules/@modelcontextprotocol/inspector-cli/build')

/** Runs the inspector CLI; its launcher spawns `node`, so this project's Node comes first on PATH. */
async function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.join(BIN, 'mcp-inspector-cli'), ['--cli', ...args], {
      cwd: CWD,
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH}` },
      timeout: 60_000,
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }
  }
}

describe.each(await targets())('MCP Inspector CLI against /mcp on %s', (target) => {
  const world = mcpWorldPerFile(target)

  it('lists the tools and calls one with a bearer token', async () => {
    await world.a.request({ method: 'POST', url: '/api/v1/accounts', payload: { name: 'Inspected Inc' } })
    const header = `Authorization: Bearer ${await tokenFor(world, 'a', 'crm:read')}`

    const listed = await inspector([world.mcpUrl, '--transport', 'http', '--method', 'tools/list', '--header', header])
    expect(listed.code, listed.stderr).toBe(0)
    const tools = JSON.parse(listed.stdout).tools as { name: string; annotations: { readOnlyHint: boolean } }[]
    expect(tools.map((t) => t.name)).toContain('search_records')
    expect(tools).toHaveLength(17)
    expect(tools.find((t) => t.name === 'delete_record')!.annotations.readOnlyHint).toBe(false)

    const called = await inspector([world.mcpUrl, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'search_records', '--tool-arg', 'q=inspected', '--header', header])
    expect(called.code, called.stderr).toBe(0)
    const result = JSON.parse(called.stdout)
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent.groups[0].records[0].title).toBe('Inspected Inc')

    const refused = await inspector([world.mcpUrl, '--transport', 'http', '--method', 'tools/list'])
    expect(refused.code).not.toBe(0)
    expect(refused.stdout + refused.stderr).toMatch(/401|Unauthorized/i)
  })
})
