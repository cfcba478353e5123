// What a lead is converted into, as the convert dialog chooses it: a new record or one of the
// suggested existing ones (GET /leads/{id}/conversion-matches), best match first.
import { cairn, call, type Schemas } from '../../api/client.ts'

export type ConversionMatches = Schemas['LeadConversionMatches']
export const NEW = 'new'

export function fetchConversionMatches(leadId: string): Promise<ConversionMatches> {
  return call(() => cairn.GET('/api/v1/leads/{id}/conversion-matches', { params: { path: { id: leadId } } }))
}

const REASONS: Record<string, string> = {
  email: 'same email',
  domain: 'email domain',
  website: 'website',
  name: 'same name',
  similar_name: 'similar name',
}

/** "email domain, same name": why a record is suggested, in words. */
export function reasonText(reasons: readonly string[]): string {
  return reasons.map((r) => REASONS[r] ?? r).join(', ')
}

/** The convert body for the choices: an id to attach to, or nothing for a new record. */
export function convertBody(account: string, contact: string, opportunity: { create: boolean; name?: string }): Schemas['LeadConvert'] {
  return {
    ...(account !== NEW ? { account_id: account } : {}),
    ...(contact !== NEW ? { contact_id: contact } : {}),
    create_opportunity: opportunity.create,
    ...(opportunity.create && opportunity.name ? { opportunity_name: opportunity.name } : {}),
  }
}
