/** CLI commands contributed by capabilities: the OAuth server's `client create`. */
import type { CliCommand } from './main.ts'
import { createOrgClient } from '../oauth/index.ts'
import { isUuid } from '../shared/ids.ts'
import { findOrganization } from '../orgs/index.ts'
import { NotFound } from '../shared/errors.ts'

class ArgumentError extends Error {}

export const cliCommandsFromCapabilities: Record<string, CliCommand> = {
  'client create': {
    usage: 'client create --org <org_id> --name <name> --redirect-uri <uri> [--redirect-uri <uri>...] --scopes "<scopes>"',
    options: { org: { type: 'string' }, name: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, scopes: { type: 'string' } },
    async run(database, v) {
      const org = v.org as string | undefined
      if (!org || !isUuid(org)) throw Object.assign(new ArgumentError('--org must be an organization id (a UUID)'), { usage: true })
      if (!v.name) throw Object.assign(new ArgumentError('--name is required'), { usage: true })
      const uris = (v['redirect-uri'] as string[] | undefined) ?? []
      if (uris.length === 0) throw Object.assign(new ArgumentError('--redirect-uri is required (repeat it for several)'), { usage: true })
      if (!v.scopes) throw Object.assign(new ArgumentError('--scopes is required, e.g. --scopes "crm:read crm:write"'), { usage: true })
      if (!(await findOrganization(database.db, org))) throw new NotFound('Organization')
      const scopes = String(v.scopes).split(/[\s,]+/).filter(Boolean)
      const created = await createOrgClient(database.db, org, { name: String(v.name), redirectUris: uris, scopes }, 'cli')
      return { client_id: created.client_id, client_secret: created.client_secret }
    },
  },
}
