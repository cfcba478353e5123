/**
 * The answer to one bound statement on the embedded database, read straight from the protocol's
 * bytes. PGlite's `execProtocol` copies an answer four times before its parser decodes it (out of
 * WebAssembly memory, into a growing buffer, into the parser's own buffer, into a slice per field);
 * for a list page's 20 KB that was about a fifth of the statement's time (docs/benchmarks.md,
 * "Where each path's CPU goes"). Here the bytes are copied once out of WebAssembly memory and each
 * field is decoded where it lies.
 *
 * The result is the one PGlite's `parse.parseResults` builds from the same messages (rows as
 * objects, values through the same type parsers, `affectedRows` and `rowCount` from CommandComplete).
 * An ErrorResponse is handed to PGlite's own parser, so the error thrown is the very DatabaseError
 * `execProtocol` throws. Message formats: PostgreSQL's protocol, "Message Formats" (55.7).
 */
import { protocol, types, type Results } from '@electric-sql/pglite'

type TypeParser = (text: string, typeId: number) => unknown

const ROW_DESCRIPTION = 0x54 // 'T'
const DATA_ROW = 0x44 // 'D'
const COMMAND_COMPLETE = 0x43 // 'C'
const ERROR_RESPONSE = 0x45 // 'E'

/** Commands whose CommandComplete count is a number of rows written (as parseResults adds them up). */
const WRITING_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'])

const decoder = new TextDecoder()

interface Field {
  name: string
  dataTypeID: number
}

/** The answer's bytes, gathered from PGlite's raw stream: each chunk is a view into its memory, so it is copied. */
export function answerCollector(): { onRawData: (chunk: Uint8Array) => void; bytes: () => Uint8Array } {
  const chunks: Uint8Array[] = []
  return {
    onRawData: (chunk) => void chunks.push(chunk.slice()),
    bytes: () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)),
  }
}

/** The first statement result of an answer, or the database's error thrown. */
export function readAnswer(data: Uint8Array, parsers: Record<number, TypeParser>): Results<Record<string, unknown>> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let first: Results<Record<string, unknown>> | undefined
  let fields: Field[] = []
  let rows: Record<string, unknown>[] = []
  let affectedRows = 0
  for (let at = 0; at + 5 <= data.length; ) {
    const type = data[at]!
    const body = at + 5
    // The length counts itself (4 bytes) and not the type byte.
    const end = at + 1 + view.getUint32(at + 1)
    if (type === ERROR_RESPONSE) throw databaseError(data)
    if (type === ROW_DESCRIPTION) fields = rowDescription(data, view, body)
    else if (type === DATA_ROW) rows.push(dataRow(data, view, body, fields, parsers))
    else if (type === COMMAND_COMPLETE) {
      const words = decoder.decode(data.subarray(body, end - 1)).split(' ')
      const command = words[0]!
      const count = parseInt(words[words.length - 1]!, 10)
      if (WRITING_COMMANDS.has(command)) affectedRows += count
      const result: Results<Record<string, unknown>> = { rows, fields, command, affectedRows } as Results<Record<string, unknown>>
      if (!Number.isNaN(count)) (result as { rowCount?: number }).rowCount = count
      first ??= result
      fields = []
      rows = []
    }
    at = end
  }
  return first ?? ({ affectedRows: 0, rows: [], fields: [] } as Results<Record<string, unknown>>)
}

function rowDescription(data: Uint8Array, view: DataView, at: number): Field[] {
  const count = view.getInt16(at)
  const fields: Field[] = []
  let p = at + 2
  for (let i = 0; i < count; i++) {
    const nul = data.indexOf(0, p)
    const name = decoder.decode(data.subarray(p, nul))
    // After the name: table oid (4), column number (2), type oid (4), type size (2), modifier (4), format (2).
    fields.push({ name, dataTypeID: view.getInt32(nul + 1 + 6) })
    p = nul + 1 + 18
  }
  return fields
}

function dataRow(data: Uint8Array, view: DataView, at: number, fields: Field[], parsers: Record<number, TypeParser>): Record<string, unknown> {
  const count = view.getInt16(at)
  const row: Record<string, unknown> = {}
  let p = at + 2
  for (let i = 0; i < count; i++) {
    const length = view.getInt32(p)
    p += 4
    const field = fields[i]!
    if (length === -1) {
      row[field.name] = null
      continue
    }
    const text = decoder.decode(data.subarray(p, p + length))
    p += length
    const parse = parsers[field.dataTypeID] ?? (types.parsers as Record<number, TypeParser>)[field.dataTypeID]
    row[field.name] = parse ? parse(text, field.dataTypeID) : text
  }
  return row
}

/** The DatabaseError PGlite's own parser makes of the answer's ErrorResponse. */
function databaseError(data: Uint8Array): Error {
  let found: Error | undefined
  new protocol.Parser().parse(data, (message) => {
    if (!found && message instanceof Error) found = message
  })
  return found ?? new Error('The embedded database answered with an error it did not describe.')
}
