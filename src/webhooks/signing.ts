/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, docs/decisions.md Webhooks):
 * `v1,` + base64 HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}". The key is the secret's
 * UTF-8 bytes, or for a `whsec_` secret the bytes its base64 carries.
 */
import crypto, { type KeyObject } from 'node:crypto'

/**
 * The HMAC key of a secret, as a KeyObject: given a Buffer, Node first tries to read it as a
 * KeyObject and as a CryptoKey, and each failed try throws and captures a stack trace, on every
 * signature. A KeyObject is prepared once per secret (signing-keys.ts keeps them).
 */
export function signingKey(secret: string): KeyObject {
  return crypto.createSecretKey(secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8'))
}

export function sign(key: KeyObject, id: string, timestampSeconds: number, body: string): string {
  // Two updates rather than one concatenated string: no copy of the body.
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body).digest('base64')
  return `v1,${mac}`
}

/** The headers of one attempt; unsigned without a secret (service-spec.md, Events rule 3). */
export function deliveryHeaders(eventId: string, timestampSeconds: number, body: string, key: KeyObject | null): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Cairn-Webhooks/1.0',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
  }
  if (key) headers['webhook-signature'] = sign(key, eventId, timestampSeconds, body)
  return headers
}
