// Owns generated User, Contact and Lead values, including the people-data hazards: duplicate
// emails differing only in case or whitespace, empty required names, non-Latin and hostile names,
// orphaned account references, and converted leads pointing at their account/contact/opportunity.
import type { Fns, GenCtx } from './gen-context.ts'
import { CITIES, COMPANY_SUFFIX, COMPANY_WORDS, DAY, FIRST, HOSTILE, LAST, NON_LATIN, pickOf, sfDate } from './gen-util.ts'
import { LEAD_SOURCES } from '../schema/dsl.ts'

const U = 1, C = 3, L = 4

// FirstName, LastName, Name and Email of one record all need its names: remember the last one.
let memo: { g: GenCtx | null; code: number; i: number; v: [string, string] } = { g: null, code: -1, i: -1, v: ['', ''] }
function names(g: GenCtx, code: number, i: number): [string, string] {
  if (memo.i === i && memo.code === code && memo.g === g) return memo.v
  const r = g.r(code, i, 1)
  let v: [string, string]
  if (r % 23 === 0) v = pickOf(NON_LATIN, r >>> 8) as [string, string]
  else if (r % 97 === 1) v = [pickOf(FIRST, r >>> 8), pickOf(HOSTILE, r >>> 12)]
  else v = [pickOf(FIRST, r >>> 8), pickOf(LAST, r >>> 16)]
  memo = { g, code, i, v }
  return v
}

// Names come from small fixed lists, so their ASCII forms (for emails) are memoised.
const asciiCache = new Map<string, string>()
const ascii = (s: string) => {
  let a = asciiCache.get(s)
  if (a === undefined) {
    a = s.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase() || 'user'
    asciiCache.set(s, a)
  }
  return a
}

export function userFns(g: GenCtx): Fns {
  return {
    ...g.audit('User', U, false),
    FirstName: (i) => names(g, U, i)[0],
    LastName: (i) => names(g, U, i)[1],
    Name: (i) => names(g, U, i).join(' '),
    // Owners are matched by email in the target, so user emails are clean and unique.
    Email: (i) => `${ascii(names(g, U, i)[0])}.${i}@example-org.com`,
    Username: (i) => `${ascii(names(g, U, i)[0])}.${i}@example-org.com${g.pod === '5g' ? '' : '.sandbox'}`,
    Alias: (i) => `u${i}`.slice(0, 8),
    Title: (i) => pickOf(['Sales Rep', 'Support Agent', 'Account Executive', 'Support Lead', 'Admin'], g.r(U, i, 2)),
    Department: (i) => pickOf(['Sales', 'Support', 'Operations'], g.r(U, i, 3)),
    IsActive: (i) => i === 0 || g.r(U, i, 4) % 8 !== 0,
    TimeZoneSidKey: (i) => pickOf(['America/Los_Angeles', 'America/New_York', 'Europe/London', 'Europe/Paris', 'Asia/Tokyo'], g.r(U, i, 5)),
    UserType: () => 'Standard',
    ManagerId: (i) => (i === 0 ? null : g.id('User', 0)),
  }
}

export function contactFns(g: GenCtx): Fns {
  const account = (i: number) => (g.r(C, i, 10) % 50 === 1 ? -1 : g.contactAccount.parentOf(i))
  const email = (i: number): string | null => {
    const r = g.r(C, i, 11)
    if (r % 19 === 0) return null
    // Every 40th contact repeats the previous contact's email with different case or padding.
    if (i % 40 === 39) {
      const prev = email(i - 1) ?? `dup${i}@example.com`
      return r % 2 ? prev.toUpperCase() : ` ${prev} `
    }
    const [f, l] = names(g, C, i)
    return `${ascii(f)}.${ascii(l)}${i}@${pickOf(['example.com', 'mail.example.net', 'corp.example.org'], r >>> 8)}`
  }
  return {
    ...g.audit('Contact', C),
    AccountId: (i) => (g.r(C, i, 12) % 200 === 7 ? g.orphanId('Account', i) : g.id('Account', account(i))),
    FirstName: (i) => names(g, C, i)[0],
    // Required on the platform, yet legacy rows without it exist.
    LastName: (i) => (g.r(C, i, 13) % 331 === 5 ? '' : names(g, C, i)[1]),
    Name: (i) => {
      const [first, last] = names(g, C, i)
      return g.r(C, i, 13) % 331 === 5 ? first : `${first} ${last}`
    },
    Salutation: (i) => (g.r(C, i, 14) % 3 === 0 ? null : pickOf(['Mr.', 'Ms.', 'Mrs.', 'Dr.', 'Prof.'], g.r(C, i, 14) >>> 4)),
    MailingStreet: (i) => `${(g.r(C, i, 15) % 9000) + 10} Market St\nSuite ${g.r(C, i, 16) % 900}`,
    MailingCity: (i) => pickOf(CITIES, g.r(C, i, 17))[0],
    MailingState: (i) => pickOf(CITIES, g.r(C, i, 17))[1] || null,
    MailingPostalCode: (i) => String(10000 + (g.r(C, i, 18) % 89999)),
    MailingCountry: (i) => pickOf(CITIES, g.r(C, i, 17))[2],
    Phone: (i) => `+1 (${200 + (g.r(C, i, 19) % 700)}) 555-${String(g.r(C, i, 20) % 10000).padStart(4, '0')}`,
    MobilePhone: (i) => (g.r(C, i, 21) % 2 ? null : `+44 7700 ${String(g.r(C, i, 22) % 1000000).padStart(6, '0')}`),
    ReportsToId: (i) => (i > 0 && g.r(C, i, 23) % 10 === 0 && account(i) >= 0 && account(i - 1) === account(i) ? g.id('Contact', i - 1) : null),
    Email: email,
    Title: (i) => pickOf(['CEO', 'CTO', 'VP Sales', 'Buyer', 'Engineer', 'Office Manager', 'Director of IT', null], g.r(C, i, 24)),
    Department: (i) => pickOf(['Finance', 'IT', 'Operations', 'Procurement', null], g.r(C, i, 25)),
    LeadSource: (i) => pickOf(LEAD_SOURCES, g.r(C, i, 26)),
    Birthdate: (i) => (g.r(C, i, 27) % 4 ? null : sfDate(Date.UTC(1950, 0, 1) + (g.r(C, i, 28) % 18000) * DAY)),
    Description: (i) => (g.r(C, i, 29) % 11 ? null : pickOf(HOSTILE, g.r(C, i, 30))),
    HasOptedOutOfEmail: (i) => g.r(C, i, 31) % 9 === 0,
    LastActivityDate: (i) => sfDate(g.createdMs('Contact', i) + (g.r(C, i, 32) % 200) * DAY),
    Preferred_Language__c: (i) => pickOf(['English', 'French', 'German', 'Japanese', 'Arabic', 'Russian', null], g.r(C, i, 33)),
    Secondary_Email__c: (i) => (g.r(C, i, 34) % 7 ? null : `alt${i}@example.org`),
  }
}

export function leadFns(g: GenCtx): Fns {
  const converted = (i: number) => g.r(L, i, 40) % 5 === 0 && i < g.live.Lead
  const convAccount = (i: number) => g.r(L, i, 41) % g.live.Account
  return {
    ...g.audit('Lead', L),
    FirstName: (i) => names(g, L, i)[0],
    LastName: (i) => names(g, L, i)[1],
    Name: (i) => names(g, L, i).join(' '),
    Title: (i) => pickOf(['Owner', 'Buyer', 'IT Manager', 'Student', null], g.r(L, i, 42)),
    // Required, but web-to-lead rows often lack it.
    Company: (i) => (g.r(L, i, 43) % 97 === 3 ? null : `${pickOf(COMPANY_WORDS, g.r(L, i, 44))} ${pickOf(COMPANY_SUFFIX, g.r(L, i, 45))}`),
    City: (i) => pickOf(CITIES, g.r(L, i, 46))[0],
    Country: (i) => pickOf(CITIES, g.r(L, i, 46))[2],
    Phone: (i) => `555-01${String(g.r(L, i, 47) % 100).padStart(2, '0')}`,
    // Some leads duplicate an existing contact's email (cross-object duplicates).
    Email: (i) => (g.r(L, i, 48) % 25 === 0 ? `${ascii(names(g, C, i)[0])}.${ascii(names(g, C, i)[1])}${i}@example.com`.toUpperCase() : `lead${i}@prospect.example`),
    LeadSource: (i) => pickOf(LEAD_SOURCES, g.r(L, i, 49)),
    Status: (i) => (converted(i) ? 'Closed - Converted' : pickOf(['Open - Not Contacted', 'Working - Contacted', 'Closed - Not Converted'], g.r(L, i, 50))),
    Rating: (i) => pickOf(['Hot', 'Warm', 'Cold', null], g.r(L, i, 51)),
    AnnualRevenue: (i) => (g.r(L, i, 52) % 3 ? null : (g.r(L, i, 53) % 1000) * 10000),
    NumberOfEmployees: (i) => g.r(L, i, 54) % 5000,
    IsConverted: converted,
    ConvertedDate: (i) => (converted(i) ? sfDate(g.createdMs('Lead', i) + 14 * DAY) : null),
    ConvertedAccountId: (i) => (converted(i) ? g.id('Account', convAccount(i)) : null),
    ConvertedContactId: (i) => {
      if (!converted(i)) return null
      const [lo, hi] = g.contactAccount.range(convAccount(i))
      return hi > lo ? g.id('Contact', lo) : null
    },
    ConvertedOpportunityId: (i) => {
      if (!converted(i) || g.r(L, i, 55) % 2) return null
      const [lo, hi] = g.oppAccount.range(convAccount(i))
      return hi > lo ? g.id('Opportunity', lo) : null
    },
    IsUnreadByOwner: (i) => g.r(L, i, 56) % 4 === 0,
    Description: (i) => (g.r(L, i, 57) % 13 ? null : pickOf(HOSTILE, g.r(L, i, 58))),
  }
}


