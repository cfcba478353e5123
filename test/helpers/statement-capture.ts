/**
 * Collects the distinct statements the service sends to the test PostgreSQL (through the
 * statement observer of src/db/connect.ts), for the Citus query rules check
 * (citus-statement-check.setup.ts). A statement a test sends itself to look at the database
 * (its stack passes through test code and no service code) is not the service's, and is left out.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
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

const childFiles: string[] = []

/**
 * What a service started as a child process needs so that its statements are captured too: the
 * node arguments that load child-statement-capture.ts and the environment naming the file it
 * appends to. Every statement of a child is the service's: no test code runs there.
 */
export function childStatementCapture(): { nodeArgs: string[]; env: Record<string, string> } {
  const file = path.join(os.tmpdir(), `cairn-child-statements-${process.pid}-${crypto.randomBytes(6).toString('hex')}.jsonl`)
  childFiles.push(file)
  return { nodeArgs: ['--import', path.join(TEST_CODE, 'helpers', 'child-statement-capture.ts')], env: { CAIRN_TEST_STATEMENT_FILE: file } }
}

function takeChildStatements(): string[] {
  const texts: string[] = []
  for (const file of childFiles.splice(0)) {
    if (!fs.existsSync(file)) continue // the child never reached PostgreSQL (an embedded service)
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      // The last line of a child killed mid-write may be cut off: it is a statement seen before.
      try {
        if (line) texts.push(JSON.parse(line) as string)
      } catch {
        /* cut off */
      }
    }
    fs.rmSync(file, { force: true })
  }
  return texts
}

/** The service's distinct statements since the last call: this process's and its children's. */
export function takeServiceStatements(): string[] {
  const texts = new Set([...seen].filter(([, service]) => service).map(([text]) => text))
  seen.clear()
  for (const text of takeChildStatements()) texts.add(text)
  return [...texts]
}
