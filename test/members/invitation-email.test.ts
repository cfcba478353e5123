/**
 * Invitation emails through a real SMTP server on loopback: the message arrives with the link and
 * the link works; a refused recipient, wrong credentials or an unreachable server lose nothing (the
 * invitation and its link stand, email_status says what happened). And SMTP_URL's validation.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { targets } from '../helpers/databases.ts'
import { buildTestApp, createOrgWithAdmin, json } from '../helpers/build-app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/databases.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { invite, linkPath, openLink, submitLink } from './helpers.ts'
import { SMTP_USER, startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'

async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.each(await targets())('invitation email on %s', (target) => {
  let smtp: SmtpReceiver
  let tdb: TestDatabase

  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    tdb = await createTestDatabase(target)
  })
  afterAll(async () => {
    await smtp?.close()
    await tdb?.drop()
  })

  it('sends the link by email; the link in the email works', async () => {
    const app = await buildTestApp(tdb.database, { SMTP_URL: smtp.url, SMTP_FROM: 'Cairn <invites@example.test>' })
    try {
      const admin = await createOrgWithAdmin(app, 'Mailco')
      const arriving = smtp.next()
      const created = await invite(admin, 'Ola@Example.test', 'admin')
      expect(created).toMatchObject({ email_status: 'sent', email_error: null })
      const mail = await arriving
      expect((mail.to && 'text' in mail.to ? mail.to.text : '').toLowerCase()).toBe('ola@example.test')
      expect(mail.from?.value).toEqual([{ name: 'Cairn', address: 'invites@example.test' }])
      expect(mail.subject).toBe(`Admin invited you to ${json(await admin.request({ method: 'GET', url: '/api/v1/me' })).organization.name} on Cairn`)
      expect(mail.text).toContain(created.invitation_url)
      expect(mail.text).toContain('as an administrator')
      expect(mail.html || '').toContain(`href="${created.invitation_url}"`)
      const url = /https?:\/\/\S+\/invite\/\S+/.exec(mail.text ?? '')![0]
      expect(url).toBe(created.invitation_url)
      const joined = await submitLink(app, linkPath(url), { name: 'Ola', password: 'correct horse battery' })
      expect(joined.statusCode).toBe(303)
      expect(json(await admin.request({ method: 'GET', url: '/api/v1/invitations' })).data).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('keeps the invitation and says why when the email fails', async () => {
    const wrongPassword = smtp.url.replace(/:[^:@]+@/, ':wrong@')
    const unreachable = `smtp://127.0.0.1:${await closedPort()}`
    const cases = [
      { url: smtp.url, to: 'bounce@example.test', error: /550/ },
      { url: wrongPassword, to: 'ok@example.test', error: /535|Invalid username/i },
      { url: unreachable, to: 'ok2@example.test', error: /ECONNREFUSED|connect/i },
    ]
    for (const c of cases) {
      const app = await buildTestApp(tdb.database, { SMTP_URL: c.url })
      try {
        const admin = await createOrgWithAdmin(app, 'Failco')
        const created = await invite(admin, c.to)
        expect(created.email_status, c.to).toBe('failed')
        expect(created.email_error).toMatch(c.error)
        expect(created.email_error).not.toContain(SMTP_USER + ':')
        expect(created.invitation_url).toMatch(/\/invite\//)
        const listed = json(await admin.request({ method: 'GET', url: '/api/v1/invitations' })).data
        expect(listed).toMatchObject([{ id: created.id, email_status: 'failed', status: 'pending' }])
        expect((await openLink(app, linkPath(created.invitation_url))).statusCode).toBe(200)
      } finally {
        await app.close()
      }
    }
  })
})

describe('SMTP configuration', () => {
  it('accepts smtp:// and smtps:// URLs and a From, refuses anything else without echoing credentials', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe('smtps://u:p@mail.example.com:465')
    expect(loadConfig({}).smtpUrl).toBeNull()
    expect(loadConfig({ PUBLIC_URL: 'https://crm.example.com' }).smtpFrom).toBe('Cairn <no-reply@crm.example.com>')
    expect(loadConfig({ SMTP_FROM: 'sales@example.com' }).smtpFrom).toBe('sales@example.com')
    for (const bad of ['http://u:secretpw@mail.example.com', 'mail.example.com', 'smtp://']) {
      expect(() => loadConfig({ SMTP_URL: bad }), bad).toThrow(ConfigError)
      try {
        loadConfig({ SMTP_URL: bad })
      } catch (err) {
        expect((err as Error).message).not.toContain('secretpw')
      }
    }
    for (const bad of ['not an address', 'a@b.test\r\nBcc: x@y.test', 'Name <broken']) expect(() => loadConfig({ SMTP_FROM: bad }), bad).toThrow(ConfigError)
  })
})
