/**
 * An owner as a model names it: the MCP write tools take `owner_id` as a member's user id or e-mail
 * address (docs/mcp.md, Owners), matched as the CSV import's Owner column matches it; the record is
 * then written with the member's id, so REST's check that an owner is a member still applies.
 */
import { sql } from 'kysely'
import { UUID_PATTERN } from '../http/schemas.ts'
import { ValidationFailed } from '../shared/errors.ts'
import { recordBulk, type SourceAliases } from '../records/index.ts'
import type { RecordKind } from '../records/contracts.ts'
import type { Args, ToolContext } from './tool-kit.ts'

const UUID = new RegExp(UUID_PATTERN)

/** Owners are members, never source records: no alias applies. */
const NO_ALIASES: SourceAliases = { aliasedRecord: () => sql`SELECT CAST(NULL AS uuid) AS record_id WHERE false` }

/** The fields with an e-mail `owner_id` replaced by that member's user id; anything else as given. */
export async function withOwnerByEmail(ctx: ToolContext, kind: RecordKind, fields: unknown): Promise<unknown> {
  const field = kind.fields.find((f) => f.name === 'owner_id')
  if (!field || typeof fields !== 'object' || fields === null) return fields
  const value = (fields as Args).owner_id
  if (typeof value !== 'string' || UUID.test(value) || !value.includes('@')) return fields
  const match = (await recordBulk.resolveReferences(ctx.db, NO_ALIASES, ctx.auth.orgId, field, [value])).get(value)
  if (!match || !('id' in match)) {
    throw new ValidationFailed(`Invalid arguments: fields.owner_id ${value} is not the e-mail of a member of this organization.`, [
      { field: 'fields.owner_id', message: "must be a member's user id or e-mail address" },
    ])
  }
  return { ...(fields as Args), owner_id: match.id }
}
