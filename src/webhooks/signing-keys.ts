/**
 * The signing keys of the endpoints being delivered to, opened from their sealed secrets once and
 * kept for a minute, instead of an AES-GCM open and a key preparation for every delivery. Entries
 * are keyed by the sealed text itself (a fresh IV makes every sealing unique), so a changed secret
 * signs from the first delivery after the change; the time limit only bounds how long the key of an
 * endpoint no longer delivered to stays in memory.
 */
import type { KeyObject } from 'node:crypto'
import type { SecretBox } from '../shared/secret-box.ts'
import { signingKey } from './signing.ts'

const KEEP_MS = 60_000
const MAX_KEYS = 1000

export interface SigningKeys {
  /** The key of a sealed secret, opened now or within the last minute. */
  get(sealed: string): KeyObject
}

export function signingKeys(box: SecretBox): SigningKeys {
  const keys = new Map<string, { key: KeyObject; until: number }>()
  return {
    get(sealed) {
      const now = performance.now()
      const kept = keys.get(sealed)
      if (kept && kept.until > now) return kept.key
      if (keys.size >= MAX_KEYS) for (const [k, v] of keys) if (v.until <= now) keys.delete(k)
      if (keys.size >= MAX_KEYS) keys.clear()
      const key = signingKey(box.open(sealed))
      keys.set(sealed, { key, until: now + KEEP_MS })
      return key
    },
  }
}
