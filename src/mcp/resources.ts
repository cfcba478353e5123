/**
 * Records as MCP resources, so hosts can attach them to a conversation: one URI template per kind,
 * `cairn://<kind path>/{id}` (e.g. cairn://accounts/0190...), read with REST's scopes and redaction.
 * resources/list offers the newest records of each kind the token may read.
 */
import { INVALID_PARAMS, INVALID_REQUEST, McpServer, ProtocolError, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server'
import type { Scope } from '../shared/auth-context.ts'
import { UUID_PATTERN } from '../http/schemas.ts'
import { recordAccess, recordReads } from '../records/index.ts'
import { recordKinds, type RecordKind } from '../records/contracts.ts'
import { titleOf } from './record-view.ts'
import { callerOf, type ToolContext } from './tool-kit.ts'

const LISTED_PER_KIND = 20
const UUID = new RegExp(UUID_PATTERN)

export function resourcePrefix(kind: RecordKind): string {
  return `cairn://${kind.path}/`
}

/** The kind a resource URI names, or null for URIs that are not record resources. */
export function kindOfUri(uri: unknown): RecordKind | null {
  if (typeof uri !== 'string') return null
  return recordKinds.find((k) => uri.startsWith(resourcePrefix(k))) ?? null
}

/** Scopes a resources/read needs (checked on the HTTP request, like a tool's). */
export function resourceScopes(uri: unknown): Scope[] {
  const kind = kindOfUri(uri)
  return kind ? recordAccess.readScopes(kind) : []
}

async function listNewest(ctx: ToolContext, kind: RecordKind) {
  if (!recordAccess.mayRead(kind, ctx.auth)) return { resources: [] }
  const page = await recordReads.listRecords(ctx.readDb, ctx.auth, kind, { limit: LISTED_PER_KIND, filters: [] })
  const data = (JSON.parse(page.json) as { data: Record<string, unknown>[] }).data
  return { resources: data.map((r) => ({ uri: `${resourcePrefix(kind)}${r.id}`, name: titleOf(kind, r), mimeType: 'application/json' })) }
}

async function readOne(ctx: ToolContext, kind: RecordKind, uri: URL, id: string) {
  if (!recordAccess.mayRead(kind, ctx.auth)) throw new ProtocolError(INVALID_REQUEST, `Reading ${kind.labelPlural.toLowerCase()} needs the scope ${recordAccess.readScopes(kind).join(' and ')}.`)
  if (!UUID.test(id)) throw new ProtocolError(INVALID_PARAMS, `The id in ${uri.href} must be a UUID.`)
  const json = await recordReads.getRecord(ctx.db, ctx.auth, kind, id)
  if (!json) throw new ResourceNotFoundError(uri.href, `${kind.label} not found: ${uri.href}`)
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: json }] }
}

// Built once (parsing URI templates per request cost more than the rest of the registration).
const templates = recordKinds.map((kind) => ({
  kind,
  template: new ResourceTemplate(`${resourcePrefix(kind)}{id}`, { list: (extra) => listNewest(callerOf(extra), kind) }),
  metadata: { title: kind.labelPlural, description: `A ${kind.label.toLowerCase()} of the organization as JSON, as GET /api/v1/${kind.path}/{id} returns it.`, mimeType: 'application/json' },
}))

export function registerRecordResources(server: McpServer): void {
  for (const { kind, template, metadata } of templates) {
    server.registerResource(kind.name, template, metadata, (uri, variables, extra) => readOne(callerOf(extra), kind, uri, String(variables.id)))
  }
}
