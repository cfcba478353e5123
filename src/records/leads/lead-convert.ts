/**
 * Lead conversion: link or create the account and the contact, optionally create an opportunity,
 * then mark the lead converted. The lead row is locked first, so two concurrent conversions cannot
 * both succeed; the caller's transaction makes the whole thing atomic.
 */
import type { AuthContext } from '../../shared/auth-context.ts'
import { Conflict, NotFound, ValidationFailed, type FieldError } from '../../shared/errors.ts'
import { BLANK_MESSAGE, isBlank } from '../../shared/required-text.ts'
import { kindsByName } from '../kinds/index.ts'
import { findRecordJson, updateRecord, type Executor } from '../record.repository.ts'
import { createRecord, type RecordChange } from '../record.service.ts'

/** A conversion copies the lead's fields; required custom fields of the new records are asked for when someone next edits them (docs/custom-fields.md). */
const CONVERTED = { skipRequiredCustomFields: true, copiedValues: true }

export interface ConvertLeadInput {
  account_id?: string
  contact_id?: string
  create_opportunity?: boolean
  opportunity_name?: string
}

/** What a lead was converted into: lead.converted's `data.conversion` and the convert answer's. */
export interface LeadConversion {
  account_id: string
  account_created: boolean
  contact_id: string
  contact_created: boolean
  opportunity_id: string | null
  opportunity_created: boolean
}

export interface ConvertLeadResult {
  conversion: LeadConversion
  lead: RecordChange
  account: Record<string, unknown>
  contact: Record<string, unknown>
  opportunity: Record<string, unknown> | null
  created: RecordChange[]
}

async function existing(trx: Executor, orgId: string, kind: 'account' | 'contact', id: string, field: string) {
  const json = await findRecordJson(trx, orgId, kindsByName[kind], id)
  if (!json) throw new ValidationFailed(`${field} does not refer to a ${kind} of this organization.`, [{ field, message: `must be the id of a ${kind} of this organization` }])
  return JSON.parse(json) as Record<string, unknown>
}

/**
 * The new records take their required text from the lead (an account its company, a contact its
 * last name, an opportunity its company unless opportunity_name is given). A lead stored before
 * blanks were refused may hold a blank one: the conversion is refused naming the lead's field and
 * the way around it, rather than the new record's field, which the caller never sent.
 */
function refuseBlankSources(lead: Record<string, string | null>, input: ConvertLeadInput): void {
  const blank = (v: string | null | undefined) => typeof v !== 'string' || isBlank(v)
  const errors: FieldError[] = []
  if (!input.account_id && blank(lead.company)) errors.push({ field: 'company', message: `${BLANK_MESSAGE}: the new account takes its name from the lead's company (set it, or link an account with account_id)` })
  if (!input.contact_id && blank(lead.last_name)) errors.push({ field: 'last_name', message: `${BLANK_MESSAGE}: the new contact takes the lead's last name (set it, or link a contact with contact_id)` })
  // The body's schema says `\S`; invisible characters alone (U+200B) are blank too.
  if (input.opportunity_name !== undefined && blank(input.opportunity_name)) errors.push({ field: 'opportunity_name', message: BLANK_MESSAGE })
  else if (input.create_opportunity && input.opportunity_name === undefined && blank(lead.company)) {
    errors.push({ field: 'opportunity_name', message: "is required when the lead's company is blank: the new opportunity takes its name from one of them" })
  }
  if (errors.length > 0) throw new ValidationFailed(`This lead cannot be converted as it is: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
}

export async function convertLead(trx: Executor, auth: AuthContext, leadId: string, input: ConvertLeadInput): Promise<ConvertLeadResult> {
  const leadJson = await findRecordJson(trx, auth.orgId, kindsByName.lead, leadId, true)
  if (!leadJson) throw new NotFound('Lead')
  const lead = JSON.parse(leadJson) as Record<string, string | null>
  if (lead.status === 'converted') throw new Conflict('This lead is already converted.')
  refuseBlankSources(lead, input)

  const created: RecordChange[] = []
  let account: Record<string, unknown>
  if (input.account_id) {
    account = await existing(trx, auth.orgId, 'account', input.account_id, 'account_id')
  } else {
    const c = await createRecord(trx, auth, kindsByName.account, { name: lead.company, industry: lead.industry, phone: lead.phone, owner_id: lead.owner_id }, CONVERTED)
    created.push(c)
    account = c.after!
  }
  let contact: Record<string, unknown>
  if (input.contact_id) {
    contact = await existing(trx, auth.orgId, 'contact', input.contact_id, 'contact_id')
  } else {
    const c = await createRecord(trx, auth, kindsByName.contact, {
      first_name: lead.first_name,
      last_name: lead.last_name,
      email: lead.email,
      phone: lead.phone,
      title: lead.title,
      account_id: account.id,
      lead_source: lead.source,
      owner_id: lead.owner_id,
    }, CONVERTED)
    created.push(c)
    contact = c.after!
  }
  let opportunity: Record<string, unknown> | null = null
  if (input.create_opportunity || input.opportunity_name) {
    const c = await createRecord(trx, auth, kindsByName.opportunity, {
      name: input.opportunity_name ?? `${lead.company}`,
      account_id: account.id,
      lead_source: lead.source,
      owner_id: lead.owner_id,
    }, CONVERTED)
    created.push(c)
    opportunity = c.after!
  }
  const res = await updateRecord(
    trx,
    auth.orgId,
    kindsByName.lead,
    leadId,
    {
      fields: {
        status: 'converted',
        converted_at: new Date().toISOString(),
        converted_account_id: account.id,
        converted_contact_id: contact.id,
        converted_opportunity_id: opportunity?.id ?? null,
      },
    },
    new Date(),
  )
  const conversion: LeadConversion = {
    account_id: String(account.id),
    account_created: !input.account_id,
    contact_id: String(contact.id),
    contact_created: !input.contact_id,
    opportunity_id: opportunity ? String(opportunity.id) : null,
    opportunity_created: opportunity !== null,
  }
  const change: RecordChange = { kind: kindsByName.lead, id: leadId, after: JSON.parse(res!.after), before: JSON.parse(res!.before), detail: { conversion } }
  return { conversion, lead: change, account, contact, opportunity, created }
}
