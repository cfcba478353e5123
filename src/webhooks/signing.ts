/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, decisions.md Webhooks):
 * `v1,` + base64 HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}". The key is the secret's
 * UTF-8 bytes, or for a `whsec_` secret the bytes its base64 carries.
 */
import crypto from 'node:crypto'

export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8')
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = crypto.createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}

/** The headers of one attempt; unsigned without a secret (service-spec.md, Events rule 3). */
export function deliveryHeaders(eventId: string, timestampSeconds: number, body: string, secret: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Cairn-Webhooks/1.0',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
  }
  if (secret) headers['webhook-signature'] = sign(secret, eventId, timestampSeconds, body)
  return headers
}
