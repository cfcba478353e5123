/**
 * Outgoing email through the operator's SMTP server (SMTP_URL), with nodemailer. The server is the
 * operator's own choice, so it does not pass through the outbound address guard that webhook and
 * source URLs chosen by tenants do (docs/members.md, Email).
 */
import nodemailer from 'nodemailer'
import type { Config } from '../config.ts'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
}

export type MailOutcome = { status: 'sent' } | { status: 'failed'; error: string }

export interface Mailer {
  send(mail: OutgoingMail): Promise<MailOutcome>
}

/** A request waits for the email: these bound how long a slow or silent server can hold it. */
const CONNECTION_TIMEOUT_MS = 10_000
const SOCKET_TIMEOUT_MS = 15_000

/** Null when no SMTP server is configured: the app then shows invitation links to copy. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'smtpFrom'>): Mailer | null {
  if (!config.smtpUrl) return null
  const transport = nodemailer.createTransport(
    { url: config.smtpUrl, connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: CONNECTION_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS },
    { from: config.smtpFrom },
  )
  return {
    async send(mail) {
      try {
        await transport.sendMail(mail)
        return { status: 'sent' }
      } catch (err) {
        // The server's own words (e.g. "550 mailbox unavailable"), never the URL with its credentials.
        const message = (err as Error).message || 'The SMTP server refused the message'
        return { status: 'failed', error: message.slice(0, 500) }
      }
    },
  }
}
