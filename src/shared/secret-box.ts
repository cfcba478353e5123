/**
 * Seals secrets the service must be able to read back (webhook signing secrets) with AES-256-GCM.
 * The key is the operator's ENCRYPTION_KEY; without one, a random key the service creates once and
 * keeps in its database, so every process on that database shares it. That protects backups of
 * the secret columns only together with the key row, so production sets ENCRYPTION_KEY.
 */
import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/database.ts'

const VERSION = 'v1'

export interface SecretBox {
  seal(plain: string): string
  open(sealed: string): string
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret box key must be 32 bytes')
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [VERSION, iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.')
    },
    open(sealed) {
      const [version, iv, data, tag] = sealed.split('.')
      if (version !== VERSION || !iv || data === undefined || !tag) throw new Error('not a sealed secret')
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}

/** The operator's key, or the database's own (created by whichever process asks first). */
export async function loadSecretBox(db: Kysely<DB>, configured: Buffer | null): Promise<SecretBox> {
  if (configured) return secretBox(configured)
  await sql`INSERT INTO service_keys (name, key) VALUES ('secret_box', ${crypto.randomBytes(32)}) ON CONFLICT (name) DO NOTHING`.execute(db)
  const row = await sql<{ key: Buffer | Uint8Array }>`SELECT key FROM service_keys WHERE name = 'secret_box'`.execute(db)
  return secretBox(Buffer.from(row.rows[0].key))
}
