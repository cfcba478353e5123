/**
 * The MCP server: the SDK's McpServer with every tool and the record resources. It holds no caller
 * or session state (the caller's organization and scopes arrive with each request), so any service
 * process answers any request; the route keeps idle servers for reuse (mcp.routes.ts).
 */
import { McpServer, type ListToolsResult, type ServerContext } from '@modelcontextprotocol/server'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv'
import { readTools } from './read-tools.ts'
import { writeTools } from './write-tools.ts'
import { caseLeadTools } from './case-lead-tools.ts'
import { batchTools } from './batch-tools.ts'
import { historyTools } from './history-tools.ts'
import { registerRecordResources } from './resources.ts'
import { recordCustomFields } from '../records/index.ts'
import { callerOf, runTool, withErrorShape, type JsonSchema, type McpTool } from './tool-kit.ts'
import { asStandardSchema, inputSchemaOf } from './tool-schemas.ts'
import { confirmationGate, verifyRequestState } from './confirmation.ts'
import { toolsWithCustomFields } from './custom-field-tools.ts'

/**
 * Every tool, in the order tools/list shows them (the same on every process and request). A file of
 * tools adds one entry here.
 */
export const mcpTools: readonly McpTool[] = [...readTools, ...writeTools, ...caseLeadTools, ...batchTools, ...historyTools]
export const toolsByName: ReadonlyMap<string, McpTool> = new Map(mcpTools.map((t) => [t.name, t]))

const INSTRUCTIONS =
  'Cairn is a CRM. Use search_records to find records by name, list_records to page through a kind with filters and a sort (sort=-amount, amount[gte]=50000), count_records for how many match, get_record for one record, ' +
  'and the write tools to create or change records; batch_write_records writes up to 1,000 records of a kind at once (all or nothing), ' +
  'and upsert_record creates or updates a record by its src_id (its id in the system it comes from). Ids are UUIDs; list pages continue with next_cursor. Amounts need the erp:read scope.'

// The SDK's schema wrappers are built once: only the tool list is per request.
const registered = mcpTools.map((tool) => ({
  tool,
  config: {
    title: tool.title,
    description: tool.description,
    inputSchema: asStandardSchema(inputSchemaOf(tool)),
    outputSchema: asStandardSchema(withErrorShape(tool.outputSchema) as JsonSchema),
    annotations: tool.annotations,
  },
}))

// One validator for every server (the SDK otherwise builds an Ajv, with its meta-schemas, per server).
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/**
 * Caching hints for the 2026-07-28 revision's list results: the tool list depends on the caller's
 * organization (its custom fields), so only the caller keeps it, for a minute; the resource
 * templates are the same for everyone; record lists and reads change with every write.
 */
const cacheHints = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
  'server/discover': { ttlMs: 3_600_000, cacheScope: 'public' },
} as const

/**
 * A server for one request (both revisions: the route classifies the request first). The caller
 * reaches handlers as the request's authInfo (tool-kit.ts `callerOf`).
 */
export function buildMcpServer(version: string): McpServer {
  const server = new McpServer(
    { name: 'cairn-crm', title: 'Cairn CRM', version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator, cacheHints, requestState: { verify: verifyRequestState(callerOf) } },
  )
  for (const { tool, config } of registered) {
    server.registerTool(tool.name, config, (args: Record<string, unknown>, sdkCtx: ServerContext) => {
      const ctx = callerOf(sdkCtx)
      return runTool(tool, ctx, args, confirmationGate(ctx, sdkCtx, args))
    })
  }
  listToolsPerOrganization(server)
  registerRecordResources(server)
  return server
}

type ListToolsHandler = (request: unknown, ctx: ServerContext) => Promise<ListToolsResult>

/**
 * tools/list answers the SDK's list with the caller's custom fields added (custom-field-tools.ts).
 * The SDK keeps its handlers in a private map; the version is pinned, and a missing handler stops
 * the server at startup rather than listing tools without the fields.
 */
function listToolsPerOrganization(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ListToolsHandler> })._requestHandlers
  const sdkList = handlers?.get('tools/list')
  if (!sdkList) throw new Error('MCP SDK: no tools/list handler to extend (has the SDK changed?)')
  handlers!.set('tools/list', async (request, sdkCtx) => {
    const listed = await sdkList(request, sdkCtx)
    const ctx = callerOf(sdkCtx)
    const defs = await recordCustomFields.listCustomFieldDefinitions(ctx.db, ctx.auth.orgId)
    return { ...listed, tools: toolsWithCustomFields(listed.tools as Parameters<typeof toolsWithCustomFields>[0], defs) as ListToolsResult['tools'] }
  })
}
