// Owns generated Account, Opportunity, Product2 and the custom objects (Project__c,
// acme__Subscription__c): company names (some hostile or blank-padded), record types,
// opportunity stages with consistent IsClosed/IsWon/Probability, and formula-field values.
import type { Fns, GenCtx } from './gen-context.ts'
import { CITIES, COMPANY_SUFFIX, COMPANY_WORDS, DAY, HOSTILE, longText, NON_LATIN, pickOf, sfDate } from './gen-util.ts'
import { INDUSTRIES, LEAD_SOURCES, OPP_STAGES } from '../schema/dsl.ts'
import { recordTypes } from '../schema/custom.ts'

const A = 2, O = 6, P = 7, PJ = 11, SB = 12
const PROB: Record<string, number> = { Prospecting: 10, Qualification: 10, 'Needs Analysis': 20, 'Value Proposition': 50, 'Id. Decision Makers': 60, 'Perception Analysis': 70, 'Proposal/Price Quote': 75, 'Negotiation/Review': 90, 'Closed Won': 100, 'Closed Lost': 0 }

export function accountFns(g: GenCtx): Fns {
  const rts = recordTypes(g.pod, 'Account')
  const name = (i: number): string => {
    const r = g.r(A, i, 1)
    if (r % 41 === 0) return `${pickOf(NON_LATIN, r >>> 8)[1]} 株式会社`
    if (r % 113 === 2) return pickOf(HOSTILE, r >>> 8)
    return `${pickOf(COMPANY_WORDS, r >>> 4)} ${pickOf(COMPANY_SUFFIX, r >>> 12)}${i >= COMPANY_WORDS.length * COMPANY_SUFFIX.length ? ' ' + (i + 1) : ''}`
  }
  const city = (i: number) => pickOf(CITIES, g.r(A, i, 2))
  return {
    ...g.audit('Account', A),
    Name: name,
    Type: (i) => pickOf(['Prospect', 'Customer - Direct', 'Customer - Channel', 'Channel Partner / Reseller', 'Other'], g.r(A, i, 3)),
    RecordTypeId: (i) => rts[g.r(A, i, 4) % 5 === 0 ? 1 : 0].id,
    ParentId: (i) => (i > 0 && g.r(A, i, 5) % 15 === 0 ? g.id('Account', g.r(A, i, 6) % i) : null),
    BillingStreet: (i) => `${(g.r(A, i, 7) % 999) + 1} ${pickOf(['Main St', 'Rue de Rivoli', 'Friedrichstraße', 'Broadway', '1-2-3 Shibuya'], g.r(A, i, 8))}`,
    BillingCity: (i) => city(i)[0],
    BillingState: (i) => city(i)[1] || null,
    BillingPostalCode: (i) => String(10000 + (g.r(A, i, 9) % 89999)),
    BillingCountry: (i) => city(i)[2],
    ShippingCity: (i) => (g.r(A, i, 10) % 3 ? city(i)[0] : null),
    ShippingCountry: (i) => (g.r(A, i, 10) % 3 ? city(i)[2] : null),
    Phone: (i) => `(${200 + (g.r(A, i, 11) % 700)}) 555-${String(g.r(A, i, 12) % 10000).padStart(4, '0')}`,
    AccountNumber: (i) => `CD${String(100000 + i)}`,
    Website: (i) => `https://www.${name(i).toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`,
    Industry: (i) => pickOf(INDUSTRIES, g.r(A, i, 13)),
    AnnualRevenue: (i) => (g.r(A, i, 14) % 4 ? (g.r(A, i, 15) % 50000) * 1000 : null),
    NumberOfEmployees: (i) => g.r(A, i, 16) % 20000,
    Ownership: (i) => pickOf(['Public', 'Private', 'Subsidiary', 'Other'], g.r(A, i, 17)),
    Description: (i) => (g.r(A, i, 18) % 700 === 0 ? longText(32000) : g.r(A, i, 18) % 5 ? null : 'Key account.\r\nRenewal in Q3.'),
    Rating: (i) => pickOf(['Hot', 'Warm', 'Cold', null], g.r(A, i, 19)),
    AccountSource: (i) => pickOf(LEAD_SOURCES, g.r(A, i, 20)),
    LastActivityDate: (i) => sfDate(g.createdMs('Account', i) + (g.r(A, i, 21) % 300) * DAY),
    Customer_Tier__c: (i) => pickOf(['Bronze', 'Silver', 'Gold', 'Platinum', null], g.r(A, i, 22)),
    acme__Health_Score__c: (i) => (g.r(A, i, 23) % 1000) / 10,
    Legacy_Id__c: (i) => `LEG-${i}`,
    Days_Since_Created__c: (i) => Math.floor((Date.UTC(2026, 0, 1) - g.createdMs('Account', i)) / DAY),
  }
}

export function opportunityFns(g: GenCtx): Fns {
  const stage = (i: number) => pickOf(OPP_STAGES, g.r(O, i, 1))
  const amount = (i: number) => (g.r(O, i, 2) % 20 === 0 ? null : (g.r(O, i, 3) % 2000) * 250)
  return {
    ...g.audit('Opportunity', O),
    AccountId: (i) => g.id('Account', g.oppAccount.parentOf(i)),
    Name: (i) => `${pickOf(['Renewal', 'Upsell', 'New Business', 'Expansion'], g.r(O, i, 4))} ${i + 1}`,
    StageName: stage,
    Amount: amount,
    Probability: (i) => PROB[stage(i)],
    ExpectedRevenue: (i) => (amount(i) === null ? null : ((amount(i) as number) * PROB[stage(i)]) / 100),
    CloseDate: (i) => sfDate(g.createdMs('Opportunity', i) + (30 + (g.r(O, i, 5) % 120)) * DAY),
    Type: (i) => pickOf(['Existing Customer - Upgrade', 'New Customer', 'Existing Customer - Replacement', null], g.r(O, i, 6)),
    NextStep: (i) => (g.r(O, i, 7) % 3 ? null : 'Send proposal'),
    LeadSource: (i) => pickOf(LEAD_SOURCES, g.r(O, i, 8)),
    IsClosed: (i) => stage(i).startsWith('Closed'),
    IsWon: (i) => stage(i) === 'Closed Won',
    IsPrivate: () => false,
    ForecastCategoryName: (i) => (stage(i) === 'Closed Won' ? 'Closed' : stage(i) === 'Closed Lost' ? 'Omitted' : 'Pipeline'),
    ContactId: (i) => {
      const [lo, hi] = g.contactAccount.range(g.oppAccount.parentOf(i))
      return hi > lo ? g.id('Contact', lo) : null
    },
    Discount__c: (i) => (g.r(O, i, 9) % 4 ? null : g.r(O, i, 10) % 30),
  }
}

export function productFns(g: GenCtx): Fns {
  return {
    ...g.audit('Product2', P, false),
    Name: (i) => `${pickOf(['GenWatt', 'SLA', 'Installation', 'Widget', 'Cloud Seat'], g.r(P, i, 1))} ${pickOf(['Diesel', 'Gold', 'Platinum', 'Pro', 'Lite'], g.r(P, i, 2))} ${i + 1}`,
    ProductCode: (i) => `GC${1000 + i}`,
    Description: (i) => (g.r(P, i, 3) % 2 ? null : 'Standard product'),
    IsActive: (i) => g.r(P, i, 4) % 10 !== 0,
    Family: (i) => pickOf(['Hardware', 'Software', 'Services', 'Support', null], g.r(P, i, 5)),
    StockKeepingUnit: (i) => `SKU-${String(i).padStart(6, '0')}`,
    QuantityUnitOfMeasure: (i) => pickOf(['Each', 'Hours', 'Licenses'], g.r(P, i, 6)),
  }
}

export function projectFns(g: GenCtx): Fns {
  return {
    ...g.audit('Project__c', PJ),
    Name: (i) => `Project ${i + 1}`,
    Account__c: (i) => (g.r(PJ, i, 1) % 150 === 0 ? g.orphanId('Account', i) : g.id('Account', g.projectAccount.parentOf(i))),
    Status__c: (i) => pickOf(['Planned', 'Active', 'On Hold', 'Done'], g.r(PJ, i, 2)),
    Budget__c: (i) => (g.r(PJ, i, 3) % 500) * 100,
    Start_Date__c: (i) => sfDate(g.createdMs('Project__c', i) + 7 * DAY),
    Is_Overdue__c: (i) => g.r(PJ, i, 2) % 4 === 1 && g.createdMs('Project__c', i) < Date.UTC(2025, 6, 1),
  }
}

export function subscriptionFns(g: GenCtx): Fns {
  return {
    ...g.audit('acme__Subscription__c', SB, false),
    Name: (i) => `SUB-${String(i + 1).padStart(7, '0')}`,
    acme__Account__c: (i) => g.id('Account', g.subscriptionAccount.parentOf(i)),
    acme__Plan__c: (i) => pickOf(['Starter', 'Team', 'Enterprise'], g.r(SB, i, 1)),
    acme__Seats__c: (i) => 1 + (g.r(SB, i, 2) % 500),
    acme__Renewal_Date__c: (i) => sfDate(g.createdMs('acme__Subscription__c', i) + 365 * DAY),
  }
}
