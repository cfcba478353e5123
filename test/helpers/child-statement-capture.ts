/**
 * Loaded with `node --import` into a service the tests start as a child process
 * (service-process.ts), so that the statements a child sends to PostgreSQL reach the Citus query
 * rules check too (citus-statement-check.setup.ts): a worker's claims, a crashed process's
 * recovery. It sees every statement a `pg` client of the process sends and appends each distinct
 * text, at once, as one JSON line to the file the parent named in CAIRN_TEST_STATEMENT_FILE, so a
 * statement is on disk even when the test kills the process with SIGKILL. The parent reads the file
 * after the test file (statement-capture.ts). Only test code loads this; the service knows nothing
 * of it.
 */
import fs from 'node:fs'
import pg from 'pg'

const file = process.env.CAIRN_TEST_STATEMENT_FILE
if (file) {
  const seen = new Set<string>()
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined
    const text = typeof first === 'string' ? first : first?.text
    if (text && !seen.has(text)) {
      seen.add(text)
      fs.appendFileSync(file, JSON.stringify(text) + '\n')
    }
    return query.apply(this, args)
  } as typeof pg.Client.prototype.query
}
