// Plain-language text of the API settings: what each scope allows and how a client was registered.
import type { ApiClient } from '../../api/settings.ts'

export interface ScopeInfo {
  scope: string
  title: string
  description: string
}

export const SCOPES: readonly ScopeInfo[] = [
  { scope: 'crm:read', title: 'Read CRM records', description: 'See accounts, contacts, leads, opportunities, cases and activities.' },
  { scope: 'crm:write', title: 'Change CRM records', description: 'Create, change and delete records, and run actions such as converting a lead.' },
  { scope: 'erp:read', title: 'Read products and amounts', description: 'See the product catalog and the amounts of opportunities.' },
]

export function scopeTitle(scope: string): string {
  return SCOPES.find((s) => s.scope === scope)?.title ?? scope
}

/** How the client came to exist, as the list shows it; `warn` marks an unverified registration. */
export function registrationText(client: Pick<ApiClient, 'registration' | 'origin'>): { label: string; warn: boolean } {
  switch (client.registration) {
    case 'settings':
      return { label: 'Settings', warn: false }
    case 'cli':
      return { label: 'CLI', warn: false }
    case 'dynamic':
      return { label: 'Dynamic registration — unverified', warn: true }
    case 'metadata_document':
      return { label: `Metadata document: ${client.origin ?? 'unknown origin'}`, warn: false }
  }
}
