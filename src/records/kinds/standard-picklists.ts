/**
 * The standard picklists' starting options: the built-in text fields whose values are a fixed set
 * (industry, account and opportunity type, lead source, case origin...). An organization's
 * administrators edit each list (src/records/picklists); until they do, these are the options.
 * Values follow the common CRM vocabulary, so data from other systems mostly fits as it is.
 */
export const INDUSTRIES = [
  'Agriculture', 'Apparel', 'Banking', 'Biotechnology', 'Chemicals', 'Communications', 'Construction', 'Consulting',
  'Education', 'Electronics', 'Energy', 'Engineering', 'Entertainment', 'Environmental', 'Finance', 'Food & Beverage',
  'Government', 'Healthcare', 'Hospitality', 'Insurance', 'Machinery', 'Manufacturing', 'Media', 'Not For Profit',
  'Recreation', 'Retail', 'Shipping', 'Technology', 'Telecommunications', 'Transportation', 'Utilities', 'Other',
] as const
export const ACCOUNT_TYPES = ['Prospect', 'Customer', 'Partner', 'Reseller', 'Competitor', 'Investor', 'Other'] as const
export const LEAD_SOURCES = ['Web', 'Phone Inquiry', 'Partner Referral', 'Purchased List', 'Trade Show', 'Word of mouth', 'Advertisement', 'Email', 'Other'] as const
export const LEAD_RATINGS = ['Hot', 'Warm', 'Cold'] as const
export const OPPORTUNITY_TYPES = ['New Business', 'Existing Business - Upgrade', 'Existing Business - Renewal', 'Existing Business - Replacement'] as const
export const CASE_ORIGINS = ['Email', 'Phone', 'Web', 'Chat'] as const
export const CASE_TYPES = ['Question', 'Problem', 'Feature Request'] as const
export const PRODUCT_FAMILIES = ['Hardware', 'Software', 'Services', 'Subscription', 'Other'] as const

/** At most this many options in one standard picklist, each of 1-120 characters (as custom picklists). */
export const MAX_PICKLIST_OPTIONS = 200
