/**
 * A CSV upload whose multipart body is cut off or malformed, or whose text parts are not UTF-8, is a
 * 400 problem and leaves nothing behind: no import row, no stored piece of the file (issue 29,
 * item 6). Before, a body that ended mid-part or without its closing boundary answered 500 from the
 * parser's error, and text parts and file names that were not UTF-8 were read as U+FFFD.
 */
import net from 'node:net'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { targets } from '../helpers/databases.ts'
import { appPerFile, createOrgWithAdmin, json, type Member } from '../helpers/build-app.ts'
import { SESSION_COOKIE } from '../../src/orgs/session.service.ts'
import { rawRequest } from '../http/raw-http.ts'

const B = 'cairn-boundary'
const CT = { 'content-type': `multipart/form-data; boundary=${B}` }

/** A part as bytes: its headers (name, optional file name; UTF-8 unless given as bytes) and its content. */
function part(disposition: string | Buffer, content: string | Buffer): Buffer {
  return Buffer.concat([Buffer.from(`--${B}\r\nContent-Disposition: form-data`), Buffer.from(disposition), Buffer.from('\r\n\r\n'), Buffer.from(content), Buffer.from('\r\n')])
}
const kind = part('; name="kind"', 'accounts')
const file = (content = 'name\r\nAcme\r\n', name = 'a.csv') => part(`; name="file"; filename="${name}"`, content)
const end = Buffer.from(`--${B}--\r\n`)

describe.each(await targets())('upload bodies on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })
  let admin: Member
  beforeEach(async () => {
    admin = await createOrgWithAdmin(ctx.app)
  })

  const left = async () => (await sql<{ n: number }>`SELECT (SELECT count(*) FROM imports)::int + (SELECT count(*) FROM import_file_chunks)::int AS n`.execute(ctx.app.db)).rows[0].n
  const upload = (payload: Buffer | string, headers: Record<string, string> = CT) => admin.request({ method: 'POST', url: '/api/v1/imports', payload, headers })

  it.each([
    ['ends in the middle of the file part', Buffer.concat([kind, file()]).subarray(0, kind.length + 60)],
    ['has no closing boundary', Buffer.concat([kind, file()])],
    ['ends in the middle of a part header', Buffer.concat([kind, Buffer.from(`--${B}\r\nContent-Disposi`)])],
    ['ends after a boundary line', Buffer.concat([kind, Buffer.from(`--${B}\r\n`)])],
    ['is not multipart at all', Buffer.from('name=Acme')],
  ])('refuses a body that %s with 400 malformed_multipart', async (_label, payload) => {
    const res = await upload(payload)
    expect(res.statusCode, res.body).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(json(res)).toMatchObject({ code: 'malformed_multipart', detail: expect.stringContaining('Nothing was imported') })
    expect(await left()).toBe(0)
  })

  it('refuses a multipart content type without its boundary', async () => {
    const res = await upload(Buffer.concat([kind, file(), end]), { 'content-type': 'multipart/form-data' })
    expect(res.statusCode, res.body).toBe(400)
    expect(json(res).code).toBe('malformed_multipart')
    expect(await left()).toBe(0)
  })

  it.each([
    ['a kind that is not UTF-8', [part('; name="kind"', Buffer.from([0x61, 0x63, 0xe7, 0x6f])), file(), end], 'kind', 'must be UTF-8'],
    ['a mapping that is not UTF-8', [kind, part('; name="mapping"', Buffer.concat([Buffer.from('{"n'), Buffer.from([0xe4]), Buffer.from('me":"name"}')])), file(), end], 'mapping', 'must be UTF-8'],
    ['a file name that is not UTF-8 (Latin-1)', [kind, part(Buffer.from('; name="file"; filename="r\u00e9sum\u00e9.csv"', 'latin1'), 'name\r\nAcme\r\n'), end], 'file', 'must have a UTF-8 file name'],
    ['a file name with a NUL', [kind, part('; name="file"; filename="a\u0000.csv"', 'name\r\nAcme\r\n'), end], '(part)', 'must not contain the NUL character (U+0000)'],
    ['a mapping nested 8,000 levels deep', [kind, part('; name="mapping"', `{"name":${'['.repeat(8000)}${']'.repeat(8000)}}`), file(), end], 'mapping', 'nests arrays and objects deeper than 64 levels'],
  ])('refuses %s with a 400 naming it', async (_label, pieces, field, message) => {
    const res = await upload(Buffer.concat(pieces as Buffer[]))
    expect(res.statusCode, res.body).toBe(400)
    expect(json(res).errors, res.body).toEqual([{ field, message }])
    expect(await left()).toBe(0)
  })

  it('refuses parts an import cannot take: a part with no name (once lost, then "kind is required"), a second file', async () => {
    for (const [pieces, field, message] of [
      [[part('', 'accounts'), file(), end], '(part)', 'has no name'],
      [[kind, file(), file(), end], 'file', 'must be sent once'],
    ] as const) {
      const res = await upload(Buffer.concat(pieces))
      expect(res.statusCode, res.body).toBe(400)
      expect(json(res).errors, res.body).toEqual([{ field, message }])
    }
    expect(await left()).toBe(0)
  })

  it('reads text parts and file names as UTF-8: the bytes of another encoding are refused, UTF-8 kept as sent', async () => {
    const latin1 = await upload(Buffer.concat([kind, part('; name="mapping"', Buffer.from('{"Na\u00efve name":"name"}', 'latin1')), file('Na\u00efve name\r\nAcme\r\n'), end]))
    expect(latin1.statusCode, latin1.body).toBe(400)
    expect(json(latin1).errors).toEqual([{ field: 'mapping', message: 'must be UTF-8' }])
    const res = await upload(Buffer.concat([kind, part('; name="mapping"', '{"Naïve name":"name"}'), part('; name="file"; filename="Résumé €.csv"', 'Naïve name\r\nAcme\r\n'), end]))
    expect(res.statusCode, res.body).toBe(202)
    expect(json(res)).toMatchObject({ file_name: 'Résumé €.csv', mapping: { 'Naïve name': 'name' }, total_rows: 1 })
  })
})

describe.each(await targets())('uploads cut off over a real socket on %s', (target) => {
  const ctx = appPerFile(target, { SERVICE_ROLE: 'web' })
  let port: number
  beforeAll(async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' })
    port = (ctx.app.server.address() as net.AddressInfo).port
  })

  it('leaves nothing behind: a body without its closing boundary is a 400 problem; a connection closed before Content-Length was sent deletes the pieces stored', async () => {
    const admin = await createOrgWithAdmin(ctx.app)
    const cut = Buffer.concat([kind, file()])
    const cutHead = `POST /api/v1/imports HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\ncontent-type: ${CT['content-type']}\r\ncontent-length: ${cut.length}\r\ncookie: ${SESSION_COOKIE}=${admin.session}\r\nx-csrf-token: ${admin.csrf}\r\n\r\n`
    const answer = await rawRequest(port, Buffer.concat([Buffer.from(cutHead), cut]))
    expect(answer.status, answer.body).toBe(400)
    expect(JSON.parse(answer.body).code).toBe('malformed_multipart')

    const pieces = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM import_file_chunks`.execute(ctx.app.db)).rows[0].n
    // 1.5 MB of a 3 MB file: the first 1 MiB piece is stored before the connection closes.
    const head = Buffer.concat([kind, Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n\r\nname\r\n`)])
    const rows = Buffer.from('Acme Corporation\r\n'.repeat(90_000))
    const socket = net.connect(port, '127.0.0.1')
    await new Promise<void>((resolve) => socket.once('connect', resolve))
    socket.write(
      `POST /api/v1/imports HTTP/1.1\r\nhost: localhost\r\ncontent-type: ${CT['content-type']}\r\ncontent-length: ${head.length + rows.length * 2}\r\n` +
        `cookie: ${SESSION_COOKIE}=${admin.session}\r\nx-csrf-token: ${admin.csrf}\r\n\r\n`,
    )
    socket.write(head)
    socket.write(rows)
    const deadline = Date.now() + 15_000
    while ((await pieces()) === 0) {
      if (Date.now() > deadline) throw new Error('no piece of the file was stored')
      await new Promise((r) => setTimeout(r, 20))
    }
    socket.destroy()
    while ((await pieces()) > 0) {
      if (Date.now() > deadline) throw new Error('the stored pieces were never deleted')
      await new Promise((r) => setTimeout(r, 20))
    }
    await new Promise((r) => setTimeout(r, 200))
    const after = await sql<{ imports: number; pieces: number }>`SELECT (SELECT count(*) FROM imports)::int AS imports, (SELECT count(*) FROM import_file_chunks)::int AS pieces`.execute(ctx.app.db)
    expect(after.rows[0]).toEqual({ imports: 0, pieces: 0 })
  })
})
