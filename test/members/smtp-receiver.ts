/**
 * A real SMTP server on loopback for the tests (smtp-server), with password authentication, that
 * parses what it receives (mailparser) and refuses recipients whose address starts with "bounce".
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'

export const SMTP_USER = 'cairn'
export const SMTP_PASSWORD = 'smtp secret'

export interface SmtpReceiver {
  url: string
  received: ParsedMail[]
  /** Resolves with the next message received; rejects when none arrives within `timeoutMs`. */
  next(timeoutMs?: number): Promise<ParsedMail>
  close(): Promise<void>
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ParsedMail[] = []
  const waiting: ((mail: ParsedMail) => void)[] = []
  const server = new SMTPServer({
    // Plain SMTP with AUTH on loopback: no certificate to trust in a test.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    // close() waits this long for clients to say QUIT, then drops them (the default is 30 s, which
    // a client that keeps its connection open would add to every test's clean-up).
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username })
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }))
      else callback()
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail)
          waiting.shift()?.(mail)
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    received,
    next: (timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const deliver = (mail: ParsedMail) => {
          clearTimeout(timer)
          resolve(mail)
        }
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(deliver), 1)
          reject(new Error(`no email reached the test SMTP server within ${timeoutMs} ms`))
        }, timeoutMs)
        waiting.push(deliver)
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
