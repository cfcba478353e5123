/**
 * Runs with every test file (vitest setupFiles): after the file, each distinct statement the
 * service sent to PostgreSQL during it must keep Citus's query rule (citus-statement-rules.ts,
 * docs/scale-out.md, Query rules), so the whole suite is the workload of the check. PGlite runs
 * are not captured; they send the same statements.
 */
import path from 'node:path'
import { afterAll } from 'vitest'
import { allowList, checkStatement, loadSqlParser } from './citus-statement-rules.ts'
import { takeServiceStatements } from './statement-capture.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

afterAll(async () => {
  const statements = takeServiceStatements()
  if (statements.length === 0) return
  await loadSqlParser()
  const allowed = allowList(ROOT)
  const problems = statements.flatMap((s) => checkStatement(s, allowed))
  if (problems.length === 0) return
  const lines = problems.map((p) => `- ${p.problem}:\n    ${p.statement.slice(0, 600)}`)
  throw new Error(`Statements that Citus would send to every shard (docs/scale-out.md, Query rules):\n${lines.join('\n')}`)
})
