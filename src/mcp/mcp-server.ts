/**
 * The MCP server: the SDK's McpServer with every tool and the record resources. It holds no caller
 * or session state (the caller's organization and scopes arrive with each request), so any service
 * process answers any request; the route keeps idle servers for reuse (mcp.routes.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import { readTools } from './read-tools.ts'
import { writeTools } from './write-tools.ts'
import { caseLeadTools } from './case-lead-tools.ts'
import { batchTools } from './batch-tools.ts'
import { historyTools } from './history-tools.ts'
import { registerRecordResources } from './resources.ts'
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js'
import { recordCustomFields } from '../records/index.ts'
import { asZod, callerOf, runTool, withErrorShape, type JsonSchema, type McpTool } from './tool-kit.ts'
import { toolsWithCustomFields } from './custom-field-tools.ts'

export const mcpTools: readonly McpTool[] = [...readTools, ...writeTools, ...caseLeadTools, ...batchTools, ...historyTools]
export const toolsByName: ReadonlyMap<string, McpTool> = new Map(mcpTools.map((t) => [t.name, t]))

const INSTRUCTIONS =
  'Cairn is a CRM. Use search_records to find records by name, list_records to page through a kind with filters and a sort (sort=-amount, amount[gte]=50000), count_records for how many match, get_record for one record, ' +
  'and the write tools to create or change records; batch_write_records writes up to 1,000 records of a kind at once (all or nothing), ' +
  'and upsert_record creates or updates a record by its src_id (its id in the system it comes from). Ids are UUIDs; list pages continue with next_cursor. Amounts need the erp:read scope.'

// The SDK's Zod wrappers are built once: only the tool list is per request.
const registered = mcpTools.map((tool) => ({
  tool,
  config: {
    title: tool.title,
    description: tool.description,
    inputSchema: asZod(tool.inputSchema),
    outputSchema: asZod(withErrorShape(tool.outputSchema) as JsonSchema),
    annotations: tool.annotations,
  },
}))

// The SDK makes a new Ajv (and compiles its meta-schemas) per server unless given one: a third of
// a request's CPU when a server is built per request. One validator serves them all.
const jsonSchemaValidator = new AjvJsonSchemaValidator()

/** The caller reaches handlers as the request's authInfo (tool-kit.ts `callerOf`). */
export function buildMcpServer(version: string): McpServer {
  const server = new McpServer({ name: 'cairn-crm', title: 'Cairn CRM', version }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator })
  for (const { tool, config } of registered) {
    server.registerTool(tool.name, config, (args: Record<string, unknown>, extra) => runTool(tool, callerOf(extra), args))
  }
  listToolsPerOrganization(server)
  registerRecordResources(server)
  return server
}

type ListToolsHandler = (request: unknown, extra: Parameters<typeof callerOf>[0]) => Promise<ListToolsResult>

/**
 * tools/list answers the SDK's list with the caller's custom fields added (custom-field-tools.ts).
 * The SDK keeps its handlers in a private map; the version is pinned, and a missing handler stops
 * the server at startup rather than listing tools without the fields.
 */
function listToolsPerOrganization(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ListToolsHandler> })._requestHandlers
  const sdkList = handlers?.get('tools/list')
  if (!sdkList) throw new Error('MCP SDK: no tools/list handler to extend (has the SDK changed?)')
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = await sdkList(request, extra)
    const ctx = callerOf(extra)
    const defs = await recordCustomFields.listCustomFieldDefinitions(ctx.db, ctx.auth.orgId)
    return { ...listed, tools: toolsWithCustomFields(listed.tools as Parameters<typeof toolsWithCustomFields>[0], defs) as ListToolsResult['tools'] }
  })
}
