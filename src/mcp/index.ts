/**
 * The MCP endpoint (`/mcp`, Streamable HTTP, stateless): tools over records, custom fields and the
 * pipeline for AI assistants, behind the same OAuth tokens and scopes as the REST API (docs/mcp.md).
 * The app registers its routes; nothing else imports this folder.
 */
export { mcpRoutes } from './mcp.routes.ts'
