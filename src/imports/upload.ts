/**
 * The multipart upload of `POST /api/v1/imports`: its fields (`kind`, `mapping`, `dedupe_by`) and
 * its one file, which streams into the database in pieces of about a megabyte as it arrives (so
 * any process can run the import, and none holds a whole file in memory). On the way the file is
 * checked to be UTF-8 and CSV all the way through, and its rows are counted: a file that cannot be
 * imported is refused at once, before anything is written, and the progress bar knows its total.
 */
import { pipeline, Readable } from 'node:stream'
import type { MultipartFile } from '@fastify/multipart'
import { CsvError, parse, type Parser } from 'csv-parse'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { ProblemError, ValidationFailed } from '../shared/errors.ts'
import { unstorableTextProblem } from '../shared/storable-text.ts'
import { decodeUtf8, type NotUtf8 } from '../shared/strict-text.ts'
import { CSV_OPTIONS, isBlankRecord } from './csv-reading.ts'
import { deleteChunks, insertChunk, readChunk } from './import.repository.ts'
import { SimpleCsv } from './simple-csv.ts'

/** Size of the file's pieces in the database. */
const CHUNK_BYTES = 1024 * 1024
/** The text fields' largest size (a mapping of a few hundred columns fits easily). */
const FIELD_BYTES = 256 * 1024
/** `kind`, `file`, `mapping`, `dedupe_by`, and room for a few a client adds on its own. */
const MAX_PARTS = 11
const REPLACEMENT = '\uFFFD'

export interface Upload {
  fields: Record<string, string>
  /** Null when the request had no file part named `file`. */
  file: { name: string | null; bytes: number; header: string[]; rows: number } | null
}

/** Reads the request; the file's pieces are stored under `importId` (deleted again on any refusal). */
export async function readUpload(request: FastifyRequest, db: Kysely<DB>, orgId: string, importId: string, maxFileBytes: number, now: () => Date): Promise<Upload> {
  if (!request.isMultipart()) throw new ProblemError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the import as multipart/form-data with a `file` part (and `kind`, optionally `mapping` and `dedupe_by`).')
  const fields: Record<string, string> = {}
  let file: Upload['file'] = null
  try {
    // Every part arrives as bytes (a "file" to busboy): busboy would decode a text part itself and
    // turn bytes that are not UTF-8 into U+FFFD without a word; here they are refused (textPart).
    const parts = request.parts({ limits: { fileSize: maxFileBytes, files: MAX_PARTS, fields: 0, parts: MAX_PARTS }, isPartAFile: () => true })
    for await (const part of fromBody(parts as AsyncIterable<MultipartFile>)) {
      const name = partName(part)
      if (name === 'file') {
        if (file) throw new ValidationFailed('Send one file per import.', [{ field: 'file', message: 'must be sent once' }])
        file = await storeFile(part, db, orgId, importId, now)
      } else if (part.filename !== undefined) {
        throw new ValidationFailed(`The file part must be named \`file\`, not \`${name}\`.`, [{ field: name, message: 'is not a known part; send the CSV as `file`' }])
      } else {
        fields[name] = await textPart(part, name)
      }
    }
  } catch (err) {
    await deleteChunks(db, orgId, importId)
    throw uploadProblem(err, maxFileBytes)
  }
  return { fields, file }
}

/**
 * A part's name, which it must have. Busboy decodes part headers itself, turning bytes that are not
 * UTF-8 into U+FFFD (docs/imports.md): a name or file name holding U+FFFD is refused as such.
 */
function partName(part: MultipartFile): string {
  const name = part.fieldname
  if (!name) throw new ValidationFailed('A part of the request has no name: name each part (`kind`, `file`, `mapping`, `dedupe_by`) in its Content-Disposition.', [{ field: '(part)', message: 'has no name' }])
  if (name.includes(REPLACEMENT)) throw new ValidationFailed('A part name is not UTF-8 text.', [{ field: '(part)', message: 'must have a UTF-8 name' }])
  if (part.filename?.includes(REPLACEMENT)) throw new ValidationFailed('The file name is not UTF-8 text: rename the file and upload it again.', [{ field: name, message: 'must have a UTF-8 file name' }])
  const unstorable = unstorableTextProblem(name) ?? (part.filename !== undefined ? unstorableTextProblem(part.filename) : null)
  if (unstorable) throw new ValidationFailed(`The name of the \`${name.replace(/[^\x20-\x7e]/g, '?')}\` part or its file ${unstorable}.`, [{ field: '(part)', message: unstorable }])
  return name
}

/** A text part (`kind`, `mapping`, `dedupe_by`): at most FIELD_BYTES of UTF-8. */
async function textPart(part: MultipartFile, name: string): Promise<string> {
  const pieces: Buffer[] = []
  let bytes = 0
  for await (const piece of fromBody(part.file as AsyncIterable<Buffer>)) {
    bytes += piece.length
    if (bytes > FIELD_BYTES) throw new ValidationFailed(`${name} is longer than ${FIELD_BYTES} bytes.`, [{ field: name, message: 'is too long' }])
    pieces.push(piece)
  }
  try {
    return decodeUtf8(Buffer.concat(pieces, bytes), 'keep')
  } catch (err) {
    throw new ValidationFailed(`The \`${name}\` part ${(err as NotUtf8).message}; send text as UTF-8.`, [{ field: name, message: 'must be UTF-8' }])
  }
}

/**
 * An error from reading the request body (the multipart parser, a connection that ended early), told
 * apart from the database's failures while the file is stored, which stay faults.
 */
class UnreadableBody extends Error {
  readonly reason: unknown
  constructor(reason: unknown) {
    super('the request body could not be read')
    this.reason = reason
  }
}

async function* fromBody<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]()
  for (;;) {
    let next: IteratorResult<T>
    try {
      next = await iterator.next()
    } catch (err) {
      throw new UnreadableBody(err)
    }
    if (next.done) return
    yield next.value
  }
}

function uploadProblem(err: unknown, maxFileBytes: number): unknown {
  if (!(err instanceof UnreadableBody)) return err
  const reason = err.reason as { code?: string; message?: string }
  const code = reason?.code
  if (reason instanceof ProblemError) return reason
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ProblemError(413, 'payload_too_large', 'Payload too large', `The file is larger than ${maxFileBytes} bytes, the largest an import takes (IMPORT_MAX_FILE_BYTES).`)
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') return new ValidationFailed('The request has more parts than an import takes: `kind`, `file`, `mapping` and `dedupe_by`.')
  if (code === 'FST_MP_PREMATURE_CLOSE') return new ValidationFailed('The upload ended before the file was complete.', [{ field: 'file', message: 'is incomplete' }])
  if (code === 'FST_PROTO_VIOLATION') return new ValidationFailed('A part of the request has a name an import does not take.')
  // Anything else the parser says (a body cut off mid-part, no closing boundary, no boundary at all,
  // a malformed part header) is the request's fault: a 400 with the parser's words.
  return new ProblemError(400, 'malformed_multipart', 'Malformed multipart body', `The request body is not complete, valid multipart/form-data: ${reason?.message ?? String(reason)}. Nothing was imported.`)
}

async function storeFile(part: MultipartFile, db: Kysely<DB>, orgId: string, importId: string, now: () => Date): Promise<NonNullable<Upload['file']>> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const counter = countRecords()
  let pending: Buffer[] = []
  let pendingBytes = 0
  let seq = 0
  let bytes = 0
  const flush = async () => {
    if (pendingBytes === 0) return
    await insertChunk(db, orgId, importId, seq++, Buffer.concat(pending, pendingBytes), now())
    pending = []
    pendingBytes = 0
  }
  for await (const piece of fromBody(part.file as AsyncIterable<Buffer>)) {
    let text: string
    try {
      text = decoder.decode(piece, { stream: true })
    } catch {
      throw notUtf8()
    }
    counter.write(text)
    bytes += piece.length
    pending.push(piece)
    pendingBytes += piece.length
    if (pendingBytes >= CHUNK_BYTES) await flush()
  }
  let rest: string
  try {
    rest = decoder.decode()
  } catch {
    throw notUtf8()
  }
  counter.write(rest)
  await flush()
  const { header, rows } = await counter.end(() => storedPieces(db, orgId, importId))
  if (!header || header.every((h) => h.trim() === '')) throw new ValidationFailed('The file is empty: its first row must name the columns.', [{ field: 'file', message: 'has no header row' }])
  return { name: part.filename || null, bytes, header, rows }
}

function notUtf8(): ValidationFailed {
  return new ValidationFailed('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.', [{ field: 'file', message: 'must be UTF-8' }])
}

/**
 * Reads the file as it streams by (its decoded text, in order), keeping only its header and the
 * count of its data rows: with the fast reader (simple-csv.ts) while it can, and for a file it
 * gives up on, with csv-parse over the pieces stored, which refuses the file or counts it. A file
 * only csv-parse may judge is thus refused once stored whole, not at its first bad byte.
 */
function countRecords(): { write(text: string): void; end(stored: () => AsyncIterable<Buffer>): Promise<{ header: string[] | null; rows: number }> } {
  const fast = new SimpleCsv()
  let header: string[] | null = null
  let rows = 0
  const count = (records: readonly string[][]) => {
    for (const record of records) {
      if (header === null) header = record
      else if (!isBlankRecord(record)) rows++
    }
  }
  return {
    write(text) {
      const records = fast.pushText(text)
      if (records !== null) count(records)
    },
    async end(stored) {
      const last = fast.end()
      if (last !== null) {
        count(last)
        return { header, rows }
      }
      header = null
      rows = 0
      const parser: Parser = parse(CSV_OPTIONS)
      pipeline(Readable.from(stored()), parser, () => {})
      try {
        for await (const record of parser as AsyncIterable<string[]>) count([record])
      } catch (err) {
        // A stored piece that could not be read back is the database's failure, not the file's.
        throw err instanceof CsvError ? notCsv(err) : err
      }
      return { header, rows }
    },
  }
}

async function* storedPieces(db: Kysely<DB>, orgId: string, importId: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const piece = await readChunk(db, orgId, importId, seq)
    if (!piece) return
    yield piece
  }
}

function notCsv(err: Error): ValidationFailed {
  return new ValidationFailed(`The file is not valid CSV: ${err.message}`, [{ field: 'file', message: 'is not valid CSV' }])
}
