/**
 * The Citus query rule itself (test/helpers/citus-statement-rules.ts), on statements shaped like
 * Cairn's: the ones Citus routes to one organization's shard pass, the ones it would send to every
 * shard fail, and the allow-list of docs/scale-out.md lets through only what it names.
 */
import path from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { pruneIdempotencyKeys } from '../../src/http/idempotency/idempotency.repository.ts'
import { allowList, checkStatement, loadSqlParser } from '../helpers/citus-statement-rules.ts'
import { createTestDatabase, isPostgresReachable } from '../helpers/databases.ts'
import { takeServiceStatements } from '../helpers/statement-capture.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

beforeAll(() => loadSqlParser())

const problemsOf = (text: string, allowed: string[] = []) => checkStatement(text, allowed).map((p) => p.problem)

describe('Citus query rule', () => {
  it('passes statements pinned to one organization', () => {
    const pinned = [
      'SELECT * FROM accounts WHERE org_id = $1 AND id = $2',
      'SELECT a.id FROM accounts a JOIN contacts c ON c.org_id = a.org_id AND c.account_id = a.id WHERE a.org_id = $1',
      'SELECT a.id FROM accounts a, contacts c WHERE c.org_id = a.org_id AND a.org_id = $1',
      'UPDATE cases SET subject = $3 WHERE org_id = $1 AND id = $2',
      'DELETE FROM events WHERE org_id = ANY($1) AND created_at < $2',
      "SELECT id FROM leads WHERE org_id IN ('a', 'b')",
      'INSERT INTO events (org_id, id, type) VALUES ($1, $2, $3)',
      'WITH old AS (SELECT * FROM accounts WHERE org_id = $1 AND id = $2 FOR UPDATE) DELETE FROM accounts a USING old WHERE a.org_id = old.org_id AND a.id = old.id AND a.org_id = $1',
      'SELECT * FROM webhooks w WHERE w.org_id = $1 AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.org_id = w.org_id AND d.webhook_id = w.id)',
      'SELECT u.email FROM users u JOIN memberships m ON m.user_id = u.id WHERE m.user_id = $1',
      'UPDATE rate_limit_counters SET count = count + 1 WHERE key = $1',
      'SELECT * FROM accounts WHERE org_id = $1 UNION ALL SELECT * FROM accounts WHERE org_id = $2',
      'UPDATE imports m SET lease_owner = $2 FROM (SELECT org_id, id FROM imports WHERE org_id = $1 LIMIT 1 FOR UPDATE SKIP LOCKED) due WHERE m.org_id = due.org_id AND m.id = due.id',
    ]
    for (const text of pinned) expect(problemsOf(text), text).toEqual([])
  })

  it('fails statements that reach every shard', () => {
    expect(problemsOf('SELECT * FROM accounts WHERE id = $1')).toEqual(['SELECT on distributed table accounts without an org_id filter'])
    expect(problemsOf('SELECT org_id, id FROM imports WHERE status = $1 FOR UPDATE SKIP LOCKED')).toEqual(['SELECT on distributed table imports without an org_id filter'])
    expect(problemsOf('UPDATE webhook_deliveries d SET status = $1 FROM webhooks w WHERE d.org_id = w.org_id AND d.webhook_id = w.id')).toEqual([
      'UPDATE on distributed table webhook_deliveries (d) without an org_id filter',
      'UPDATE on distributed table webhooks (w) without an org_id filter',
    ])
    expect(problemsOf('DELETE FROM events WHERE created_at < $1')).toEqual(['DELETE on distributed table events without an org_id filter'])
    expect(problemsOf('INSERT INTO events (id, type) VALUES ($1, $2)')).toEqual(['INSERT on distributed table events without an org_id filter'])
    // org_id compared with another column of the same table pins nothing.
    expect(problemsOf('SELECT * FROM events WHERE org_id = actor_org_id')).toEqual(['SELECT on distributed table events without an org_id filter'])
    // A pinned outer query does not pin an uncorrelated subquery.
    expect(problemsOf('SELECT * FROM accounts WHERE org_id = $1 AND id IN (SELECT account_id FROM contacts WHERE email = $2)')).toEqual([
      'SELECT on distributed table contacts without an org_id filter',
    ])
    // An OR does not pin: only top-level AND conditions do.
    expect(problemsOf('SELECT * FROM accounts WHERE org_id = $1 OR id = $2')).toEqual(['SELECT on distributed table accounts without an org_id filter'])
    // A CTE named like nothing distributed is not a table; the CTE's own body is checked.
    expect(problemsOf('WITH due AS (SELECT org_id, id FROM imports WHERE status = $1) SELECT * FROM due')).toEqual(['SELECT on distributed table imports without an org_id filter'])
    // Rows from unnest may belong to any number of organizations: joining them pins nothing.
    expect(problemsOf('WITH v AS (SELECT * FROM unnest($1::uuid[], $2::uuid[]) AS v (org_id, id)) UPDATE webhook_deliveries d SET status = $3 FROM v WHERE d.org_id = v.org_id AND d.id = v.id')).toEqual([
      'UPDATE on distributed table webhook_deliveries (d) without an org_id filter',
    ])
  })

  it('lets through exactly the allow-listed statements', () => {
    const housekeeping = 'DELETE FROM   events\n WHERE created_at < $1'
    expect(problemsOf(housekeeping, ['DELETE FROM events WHERE created_at <'])).toEqual([])
    expect(problemsOf('DELETE FROM events WHERE type = $1', ['DELETE FROM events WHERE created_at <'])).toHaveLength(1)
    expect(allowList(ROOT).length).toBeGreaterThan(0)
  })
})

describe.runIf(await isPostgresReachable())('statement capture on PostgreSQL', () => {
  it("keeps the service's statements and leaves out those a test sends itself", async () => {
    const t = await createTestDatabase('postgres')
    try {
      takeServiceStatements()
      await sql`SELECT count(*) FROM events WHERE type = ${'from the test'}`.execute(t.database.db)
      await pruneIdempotencyKeys(t.database.db, new Date())
      const captured = takeServiceStatements()
      expect(captured).toEqual([expect.stringContaining('DELETE FROM idempotency_keys WHERE expires_at <=')])
    } finally {
      await t.drop()
    }
  })
})
