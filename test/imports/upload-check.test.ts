/**
 * The upload's check and the job's reading with two readers (src/imports/simple-csv.ts, and
 * csv-parse for files the fast one gives up on): a file is refused as bad CSV whichever reader met
 * the fault and wherever it is; a file only csv-parse accepts (a row over 64 KiB) is counted and
 * imported exactly as csv-parse reads it, after rows the fast reader gave; every kind of line break
 * ends a row in both, mixed in one file.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { runImports, startImport } from './helpers.ts'

describe.each(await targets())('the upload check and the two CSV readers on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })
  let admin: Member
  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const many = (n: number) => Array.from({ length: n }, (_, i) => `Name ${i},n${i}@example.com`).join('\r\n')

  it('refuses bad CSV wherever the fault is, and stores nothing', async () => {
    // A quote never closed, at the end of a file of 3 MB (pieces stored before the fault is found).
    for (const csv of [`Last Name,Email\r\n${many(60_000)}\r\n"never closed,x\r\n`, 'Last Name,Email\r\nAda "the" Countess,ada@example.com\r\n', 'Last Name,Email\r\n"Ada"x,ada@example.com\r\n']) {
      const res = await startImport(admin, { kind: 'contacts' }, csv)
      expect(res.statusCode, res.body).toBe(400)
      expect(json(res).detail).toMatch(/^The file is not valid CSV: /)
    }
    const chunks = await sql<{ n: number }>`SELECT count(*)::int AS n FROM import_file_chunks`.execute(ctx.app.db)
    expect(chunks.rows[0].n).toBe(0)
  })

  it('counts and imports a file only csv-parse reads exactly as csv-parse reads it', async () => {
    // 2,500 ordinary rows, then a row longer than the fast reader takes (its note, a column left
    // out, is 70 KB), then more rows: the job reads the rest with csv-parse.
    const rows = Array.from({ length: 2500 }, (_, i) => `Row ${i},r${i}@example.com,`)
    rows.push(`Long,long@example.com,"${'note '.repeat(14_000)}"`, '', 'Last,last@example.com,')
    const res = await startImport(admin, { kind: 'contacts', mapping: JSON.stringify({ 'Last Name': 'last_name', Email: 'email', Note: null }) }, `Last Name,Email,Note\n${rows.join('\n')}\n`)
    expect(res.statusCode, res.body).toBe(202)
    expect(json(res).total_rows).toBe(2502)
    await runImports(ctx.app, target)
    const done = json(await admin.request({ url: `/api/v1/imports/${json(res).id}` }))
    expect(done).toMatchObject({ status: 'completed', processed: 2502, created: 2502, failed: 0 })
    const names = (await sql<{ last_name: string }>`SELECT last_name FROM contacts WHERE org_id = ${admin.orgId} ORDER BY email`.execute(ctx.app.db)).rows.map((r) => r.last_name)
    expect(names).toHaveLength(2502)
    expect(names).toContain('Long')
    expect(names).toContain('Last')
    expect(new Set(names).size).toBe(2502)
  })

  // A file stitched together from several tools: CRLF, LF and CR each end a row outside quotes
  // (csv-parse's default took the first kind met for the file's, the others for data, and read
  // three rows as one record, reported completed); inside quotes each stays part of the value. Read
  // by the fast reader, and by csv-parse when a long first row sends the whole file to it.
  it.each([
    ['the fast reader', ''],
    ['csv-parse', `Long,long@example.com,"${'note '.repeat(14_000)}"\n`],
  ])('ends a row at every kind of line break, mixed in one file, with %s', async (_reader, first) => {
    const csv = `Last Name,Email,Note\r\n${first}A,a@example.com,crlf\nB,b@example.com,lf\rC,c@example.com,cr\r\n` + '"D\r\nE",d@example.com,"x\ny"\r"F\rG",f@example.com,"z\r\nw"\n"H\nI",h@example.com,\r'
    const res = await startImport(admin, { kind: 'contacts', mapping: JSON.stringify({ 'Last Name': 'last_name', Email: 'email', Note: null }) }, csv)
    expect(res.statusCode, res.body).toBe(202)
    const rows = first ? 7 : 6
    expect(json(res).total_rows).toBe(rows)
    await runImports(ctx.app, target)
    const done = json(await admin.request({ url: `/api/v1/imports/${json(res).id}` }))
    expect(done).toMatchObject({ status: 'completed', processed: rows, created: rows, failed: 0, issue_count: 0 })
    const stored = (await sql<{ last_name: string; email: string }>`SELECT last_name, email FROM contacts WHERE org_id = ${admin.orgId} AND email <> 'long@example.com' ORDER BY email`.execute(ctx.app.db)).rows
    expect(stored).toEqual([
      { last_name: 'A', email: 'a@example.com' },
      { last_name: 'B', email: 'b@example.com' },
      { last_name: 'C', email: 'c@example.com' },
      { last_name: 'D\r\nE', email: 'd@example.com' },
      { last_name: 'F\rG', email: 'f@example.com' },
      { last_name: 'H\nI', email: 'h@example.com' },
    ])
  })
})
