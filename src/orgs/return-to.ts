/**
 * Where sign-in sends a person afterwards. The rule (docs/api.md, "Sign-in return_to"): the value is
 * read by the same URL parser a browser uses, against this site's public URL, and kept only when it
 * lands on this site's own origin and holds no control character at all. Anything else goes home.
 * Checking prefixes instead is what let `/<TAB>/evil.example` through: browsers drop tabs and
 * newlines from URLs (WHATWG URL, "remove all ASCII tab or newline"), turning it into `//evil.example`,
 * and a CR or LF made Node refuse the Location header (a 500).
 */

export const HOME = '/app'
const MAX_LENGTH = 4000
/** Unicode Cc: C0 controls (tab, CR, LF, NUL, ...), DEL and the C1 controls. */
const CONTROL = /\p{Cc}/u

export function safeReturnTo(value: unknown, publicUrl: string): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_LENGTH || CONTROL.test(value)) return HOME
  const site = new URL(publicUrl)
  let target: URL
  try {
    target = new URL(value, site)
  } catch {
    return HOME
  }
  // Redirects only ever go to http(s) on this origin; `javascript:` and friends have an opaque origin.
  if (target.origin !== site.origin) return HOME
  const relative = target.pathname + target.search + target.hash
  // The parser can normalise a same-origin value into a path starting `//` (`/.//evil.example`),
  // which a browser would read as another host if sent relative: send it absolute instead.
  return relative.startsWith('//') ? target.href : relative
}
