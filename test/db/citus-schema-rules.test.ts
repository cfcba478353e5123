/**
 * The schema keeps Citus's documented rules (issue 31, item 3, schema half): every table has a role
 * in src/db/table-roles.ts, distributed tables key on org_id and carry no triggers, foreign keys
 * are ones Citus creates, and docs/scale-out.md names the same roles. A probe schema with one
 * violation of each rule shows the rules catch what they are for.
 */
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { roleOf, TABLE_ROLES, type TableRole } from '../../src/db/table-roles.ts'
import { createTestDatabase, targets, type TestDatabase } from '../helpers/databases.ts'
import {
  foreignKeysCitusRefuses,
  foreignKeysOutOfOrder,
  globalSequencesOnDistributedTables,
  tablesWithoutRole,
  triggersOnShardedTables,
  uniqueKeysWithoutOrg,
} from '../helpers/citus-catalog-rules.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const listed = TABLE_ROLES.map((t) => t.table)

describe.each(await targets())('Citus schema rules on %s', (target) => {
  let t: TestDatabase
  beforeAll(async () => {
    t = await createTestDatabase(target)
  })
  afterAll(() => t?.drop())

  it('gives every table of the schema a role, and every role a table', async () => {
    expect(await tablesWithoutRole(t.database.db, 'public', roleOf, listed)).toEqual([])
    expect(new Set(listed).size).toBe(listed.length)
  })

  it('keys every distributed table on org_id (primary key and every unique key)', async () => {
    expect(await uniqueKeysWithoutOrg(t.database.db, 'public', roleOf)).toEqual([])
  })

  it('has no triggers on distributed or reference tables', async () => {
    expect(await triggersOnShardedTables(t.database.db, 'public', roleOf)).toEqual([])
  })

  it('has only foreign keys Citus creates, listed in an order db distribute can follow', async () => {
    expect(await foreignKeysCitusRefuses(t.database.db, 'public', roleOf)).toEqual([])
    expect(await foreignKeysOutOfOrder(t.database.db, 'public', listed)).toEqual([])
  })

  it('numbers distributed rows per organization, not from global sequences', async () => {
    expect(await globalSequencesOnDistributedTables(t.database.db, 'public', roleOf)).toEqual([])
  })

  it('catches each violation in a probe schema', async () => {
    const db = t.database.db
    await t.database.execScript(`
      DROP SCHEMA IF EXISTS citus_probe CASCADE;
      CREATE SCHEMA citus_probe;
      CREATE TABLE citus_probe.tenants (id uuid PRIMARY KEY);
      CREATE TABLE citus_probe.things (org_id uuid NOT NULL, id uuid NOT NULL, code text, n bigserial, PRIMARY KEY (org_id, id), UNIQUE (code));
      CREATE TABLE citus_probe.parts (org_id uuid, id uuid PRIMARY KEY, thing_id uuid);
      CREATE UNIQUE INDEX parts_thing ON citus_probe.parts (id, thing_id);
      CREATE TABLE citus_probe.notes (org_id uuid NOT NULL, id uuid NOT NULL, thing_id uuid, PRIMARY KEY (org_id, id),
        FOREIGN KEY (org_id, thing_id) REFERENCES citus_probe.things (id, org_id));
      ALTER TABLE citus_probe.things ADD CONSTRAINT things_id_key UNIQUE (id, org_id);
      CREATE TABLE citus_probe.globals (id uuid PRIMARY KEY, org_id uuid, thing_id uuid,
        FOREIGN KEY (org_id, thing_id) REFERENCES citus_probe.things (org_id, id));
      CREATE TABLE citus_probe.leases (key text PRIMARY KEY);
      ALTER TABLE citus_probe.things ADD COLUMN lease text REFERENCES citus_probe.leases (key);
      CREATE FUNCTION citus_probe.touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
      CREATE TRIGGER things_touch BEFORE UPDATE ON citus_probe.things FOR EACH ROW EXECUTE FUNCTION citus_probe.touch();
      CREATE TABLE citus_probe.unlisted (id int);
    `)
    const roles: Record<string, TableRole> = { tenants: 'reference', things: 'distributed', parts: 'distributed', notes: 'distributed', globals: 'reference', leases: 'local' }
    const probeRole = (table: string) => roles[table] ?? null
    try {
      expect(await tablesWithoutRole(db, 'citus_probe', probeRole, [...Object.keys(roles), 'ghost'])).toEqual([
        'unlisted: a table without a role in src/db/table-roles.ts',
        'ghost: has a role but is not a table',
      ])
      expect(await uniqueKeysWithoutOrg(db, 'citus_probe', probeRole)).toEqual([
        'parts: org_id may be null',
        'parts: unique key parts_pkey (id) does not include org_id',
        'parts: unique key parts_thing (id, thing_id) does not include org_id',
        'things: unique key things_code_key (code) does not include org_id',
      ])
      expect(await triggersOnShardedTables(db, 'citus_probe', probeRole)).toEqual(['things: trigger things_touch on a distributed table'])
      const refused = await foreignKeysCitusRefuses(db, 'citus_probe', probeRole)
      expect(refused).toHaveLength(3)
      expect(refused.find((p) => p.startsWith('globals.'))).toContain('a reference table references a distributed table')
      expect(refused.find((p) => p.startsWith('things.'))).toContain('a distributed table references a local table')
      expect(refused.find((p) => p.startsWith('notes.'))).toContain('between distributed tables without org_id on both sides')
      expect(await foreignKeysOutOfOrder(db, 'citus_probe', ['notes', 'things', 'leases', 'globals'])).toEqual([
        expect.stringMatching(/^notes\..*: references things, which table-roles.ts lists later$/),
        expect.stringMatching(/^things\..*: references leases, which table-roles.ts lists later$/),
      ])
      expect(await globalSequencesOnDistributedTables(db, 'citus_probe', probeRole)).toEqual(['things.n: numbered by a global sequence'])
    } finally {
      await sql`DROP SCHEMA citus_probe CASCADE`.execute(db)
    }
  })
})

describe('docs/scale-out.md, Table roles', () => {
  it('names every table with the role table-roles.ts gives it, and no other', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/scale-out.md'), 'utf8')
    const section = doc.split(/^## /m).find((s) => s.startsWith('Table roles'))
    expect(section, 'a "## Table roles" section').toBeDefined()
    const rows = [...section!.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(distributed|reference|local)\s*\|/gm)].map((m) => [m[1], m[2]])
    expect(rows).toEqual(TABLE_ROLES.map((t) => [t.table, t.role]))
  })
})
