/**
 * The normal forms deduplication compares: an email address and a company's web domain. The
 * analyzer's duplicate check, the transform (the derived `domain`) and the importer's matching all
 * use these two functions, so "the same" means the same thing everywhere.
 */

/**
 * Email as compared for duplicates: surrounding whitespace removed, lower case. Exported data has
 * "Ann@X.com", " ann@x.com" and "ann@x.com " for one person (source-platform.md §3.3). Dots and
 * `+tags` are kept: only some mail providers ignore them, so treating them as equal would merge
 * different people. Returns null for an empty value.
 */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const s = value.trim().toLowerCase()
  return s === '' ? null : s
}

/**
 * The host of a website, as the account's `domain`: lower case, no scheme, path, port, user info,
 * trailing dot or leading `www.`. Accepts what people type into a Website field ("www.acme.com",
 * "acme.com/about", "https://WWW.Acme.com:443/"). Returns null when no plausible host is found.
 */
export function normalizeDomain(value: unknown): string | null {
  if (typeof value !== 'string') return null
  let s = value.trim().toLowerCase()
  if (s === '') return null
  const scheme = s.indexOf('://')
  if (scheme >= 0) s = s.slice(scheme + 3)
  else if (s.startsWith('//')) s = s.slice(2)
  const end = firstIndexOf(s, '/?#')
  if (end >= 0) s = s.slice(0, end)
  const at = s.lastIndexOf('@')
  if (at >= 0) s = s.slice(at + 1)
  const colon = s.indexOf(':')
  if (colon >= 0) s = s.slice(0, colon)
  while (s.endsWith('.')) s = s.slice(0, -1)
  if (s.startsWith('www.')) s = s.slice(4)
  // A host is labels of letters, digits and hyphens (or IDN letters) separated by dots, with at least one dot.
  if (!HOST.test(s)) return null
  return s
}

const HOST = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u

function firstIndexOf(s: string, chars: string): number {
  let best = -1
  for (const c of chars) {
    const i = s.indexOf(c)
    if (i >= 0 && (best < 0 || i < best)) best = i
  }
  return best
}
