/**
 * Collects the distinct statements the service sends to the test PostgreSQL (through the
 * statement observer of src/db/connect.ts), for the Citus query rules check
 * (citus-statement-check.setup.ts). A statement a test sends itself to look at the database
 * (its stack passes through test code and no service code) is not the service's, and is left out.
 */
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SERVICE_CODE = path.join(ROOT, 'src') + path.sep
const PLUMBING = path.join(ROOT, 'src', 'db') + path.sep
const TEST_CODE = path.join(ROOT, 'test') + path.sep

const seen = new Map<string, boolean>()

/** Whether the caller is service code: a frame in src/ outside the SQL plumbing, or no test frame at all. */
function sentByService(): boolean {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 60
  const stack = new Error().stack ?? ''
  Error.stackTraceLimit = limit
  const files = [...stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):\d+:\d+/g)].map((m) => m[1]!)
  if (files.some((f) => f.startsWith(SERVICE_CODE) && !f.startsWith(PLUMBING))) return true
  return !files.some((f) => f.startsWith(TEST_CODE))
}

export function captureStatement(text: string): void {
  if (!seen.has(text)) seen.set(text, sentByService())
}

/** The service's distinct statements since the last call. */
export function takeServiceStatements(): string[] {
  const texts = [...seen].filter(([, service]) => service).map(([text]) => text)
  seen.clear()
  return texts
}
