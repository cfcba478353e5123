/**
 * The house rules of imports (docs/architecture.md), read from the source files:
 * - plumbing (src/db, src/http, src/shared, src/config.ts) imports no capability;
 * - a capability, the app and the CLI reach another capability only through its door (index.ts) or
 *   its browser-safe contracts (contracts.ts), and every capability has a door;
 * - the web app imports server code only through src/web-contracts.ts, and nothing that file
 *   reaches imports a Node.js module or a server package;
 * - records' door offers a few named groups (recordReads, recordWrites, ...), not every function.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SRC = path.join(ROOT, 'src')
const CAPABILITIES = ['records', 'oauth', 'orgs', 'webhooks', 'events', 'migration', 'imports', 'members', 'mcp', 'mail', 'reports']
const PLUMBING = ['db', 'http', 'shared']
const DOORS = ['index.ts', 'contracts.ts']
/** Records' door (docs/architecture.md, "Doors"): 8 groups today, for 73 names before them. */
const MAX_RECORDS_DOOR_VALUES = 8
const MAX_GROUP_MEMBERS = 20
const SERVER_PACKAGES = ['kysely', 'pg', 'fastify', 'fastify-plugin', '@electric-sql/pglite', 'jsforce', 'nodemailer', 'undici', 'ajv', 'pino']

function filesUnder(dir: string, exts: string[]): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : filesUnder(p, exts)
    return exts.some((x) => e.name.endsWith(x)) ? [p] : []
  })
}

interface Import {
  spec: string
  typeOnly: boolean
}

/** The module specifiers a file imports or re-exports (statically). */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8')
  const out: Import[] = []
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm
  for (const m of text.matchAll(re)) out.push({ spec: m[3], typeOnly: Boolean(m[2]) })
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1], typeOnly: false })
  return out
}

const rel = (p: string) => path.relative(ROOT, p)
const resolve = (from: string, spec: string) => path.resolve(path.dirname(from), spec)
/** The top folder under src/ of a path (or the file name for files at src/'s root). */
const topOf = (p: string) => path.relative(SRC, p).split(path.sep)[0]

describe('import rules', () => {
  const sources = filesUnder(SRC, ['.ts'])

  it('every capability has a door (index.ts)', () => {
    for (const cap of CAPABILITIES) expect(fs.existsSync(path.join(SRC, cap, 'index.ts')), cap).toBe(true)
  })

  it('plumbing imports no capability', () => {
    const broken: string[] = []
    for (const file of sources.filter((f) => PLUMBING.includes(topOf(f)) || rel(f) === 'src/config.ts')) {
      for (const { spec } of importsOf(file)) {
        if (!spec.startsWith('.')) continue
        const target = resolve(file, spec)
        if (CAPABILITIES.includes(topOf(target))) broken.push(`${rel(file)} -> ${rel(target)}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('capabilities, the app and the CLI reach another capability only through its door or contracts', () => {
    const broken: string[] = []
    for (const file of sources) {
      const own = topOf(file)
      if (PLUMBING.includes(own)) continue
      for (const { spec } of importsOf(file)) {
        if (!spec.startsWith('.')) continue
        const target = resolve(file, spec)
        const cap = topOf(target)
        if (!CAPABILITIES.includes(cap) || cap === own) continue
        if (path.dirname(target) !== path.join(SRC, cap) || !DOORS.includes(path.basename(target))) broken.push(`${rel(file)} -> ${rel(target)}`)
      }
    }
    expect(broken).toEqual([])
  })

  it("records' door offers a few groups of operations, each a plain object of a few names", async () => {
    // Types are erased: what is left at run time is every value the door offers.
    const door: Record<string, unknown> = await import('../../src/records/index.ts')
    const names = Object.keys(door)
    expect(names.length).toBeGreaterThan(0)
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(MAX_RECORDS_DOOR_VALUES)
    for (const name of names) {
      const group = door[name]
      expect(Object.getPrototypeOf(group), `${name} is a group (a plain object)`).toBe(Object.prototype)
      expect(Object.keys(group as object).length, name).toBeLessThanOrEqual(MAX_GROUP_MEMBERS)
    }
  })

  it('the web app imports server code only through src/web-contracts.ts', () => {
    const broken: string[] = []
    for (const file of filesUnder(path.join(ROOT, 'web/src'), ['.ts', '.tsx'])) {
      for (const { spec } of importsOf(file)) {
        if (!spec.startsWith('.')) continue
        const target = resolve(file, spec)
        if (target.startsWith(SRC + path.sep) && target !== path.join(SRC, 'web-contracts.ts')) broken.push(`${rel(file)} -> ${rel(target)}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('nothing the web contracts reach imports a Node.js module or a server package', () => {
    const seen = new Set<string>()
    const broken: string[] = []
    const visit = (file: string, via: string[]) => {
      if (seen.has(file)) return
      seen.add(file)
      for (const { spec, typeOnly } of importsOf(file)) {
        if (typeOnly) continue
        if (spec.startsWith('.')) visit(resolve(file, spec), [...via, rel(file)])
        else if (spec.startsWith('node:') || SERVER_PACKAGES.includes(spec)) broken.push(`${[...via, rel(file)].join(' -> ')} imports ${spec}`)
      }
    }
    visit(path.join(SRC, 'web-contracts.ts'), [])
    expect(seen.size).toBeGreaterThan(10)
    expect(broken).toEqual([])
  })
})
