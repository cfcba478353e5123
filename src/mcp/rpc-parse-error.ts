/**
 * A JSON-RPC body /mcp could not read, as the JSON-RPC error the MCP transport itself answers for
 * unparseable JSON (400, -32700 Parse error; JSON-RPC 2.0 §5.1): malformed or empty JSON, bytes that
 * are not UTF-8, nesting deeper than the service takes (http/body-parsers.ts). Other HTTP-level
 * refusals (401, 403, 413, 415, 429) stay problems, as docs/mcp.md says.
 */
import { BodyRefused } from '../http/body-parsers.ts'

const PARSE_ERRORS = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY'])

export interface RpcParseError {
  message: string
  /** The REST problem code of the same refusal (`malformed_json`, `invalid_encoding`, `nesting_too_deep`). */
  problem: string
}

export function rpcParseError(err: { code?: string; message: string }): RpcParseError | null {
  if (err instanceof BodyRefused) return { message: `Parse error: ${err.message}`, problem: err.code }
  if (err.code !== undefined && PARSE_ERRORS.has(err.code)) return { message: `Parse error: ${err.message}`, problem: 'malformed_json' }
  return null
}
