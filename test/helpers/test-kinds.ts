/**
 * Sorts the test files into vitest projects by what they touch, read from their imports, so a new
 * test lands in the right project without a list to update: `browser` is test/e2e; `integration`
 * reaches a database, a listening service or a child process (directly or through a helper under
 * test/); `unit` is everything else and needs neither PostgreSQL nor a migrated template.
 */
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
export const TEST_ROOTS = ['test', 'src', 'tools']
export const BROWSER_DIR = 'test/e2e'

// What makes a file an integration test when it, or a test helper it imports, mentions it.
const NEEDS_SERVICES = [
  /helpers\/(databases|build-app|live-service|service-database|service-process|test-app)\.ts/,
  /src\/(db\/connect|runtime|server|worker)\.ts/,
  /\bnode:child_process\b/,
]

function testFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...testFiles(rel))
    } else if (entry.name.endsWith('.test.ts')) out.push(rel)
  }
  return out
}

/** Whether `file` or a helper under test/ it imports (transitively) mentions a service. */
function needsServices(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false
  seen.add(file)
  const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
  if (NEEDS_SERVICES.some((re) => re.test(source))) return true
  for (const m of source.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]))
    if (target.startsWith('test/') && fs.existsSync(path.join(ROOT, target)) && needsServices(target, seen)) return true
  }
  return false
}

export interface TestKinds {
  unit: string[]
  integration: string[]
  browser: string[]
}

export function testKinds(): TestKinds {
  const kinds: TestKinds = { unit: [], integration: [], browser: [] }
  for (const file of TEST_ROOTS.flatMap(testFiles).sort()) {
    if (file.startsWith(`${BROWSER_DIR}/`)) kinds.browser.push(file)
    else if (needsServices(file)) kinds.integration.push(file)
    else kinds.unit.push(file)
  }
  return kinds
}
