/**
 * The multipart upload of `POST /api/v1/imports`: its fields (`kind`, `mapping`, `dedupe_by`) and
 * its one file, which streams into the database in pieces of about a megabyte as it arrives (so
 * any process can run the import, and none holds a whole file in memory). On the way the file is
 * checked to be UTF-8 and CSV all the way through, and its rows are counted: a file that cannot be
 * imported is refused at once, before anything is written, and the progress bar knows its total.
 */
import type { MultipartFile, MultipartValue } from '@fastify/multipart'
import { parse, type Parser } from 'csv-parse'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/database.ts'
import { ProblemError, ValidationFailed } from '../shared/errors.ts'
import { CSV_OPTIONS, isBlankRecord } from './csv-reading.ts'
import { deleteChunks, insertChunk } from './import.repository.ts'

/** Size of the file's pieces in the database. */
const CHUNK_BYTES = 1024 * 1024
/** The text fields' largest size (a mapping of a few hundred columns fits easily). */
const FIELD_BYTES = 256 * 1024

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
    const parts = request.parts({ limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: FIELD_BYTES, parts: 11 } })
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new ValidationFailed(`The file part must be named \`file\`, not \`${part.fieldname}\`.`, [{ field: part.fieldname, message: 'is not a known part; send the CSV as `file`' }])
        file = await storeFile(part, db, orgId, importId, now)
      } else {
        const value = (part as MultipartValue).value
        if ((part as MultipartValue).valueTruncated) throw new ValidationFailed(`${part.fieldname} is longer than ${FIELD_BYTES} bytes.`, [{ field: part.fieldname, message: 'is too long' }])
        fields[part.fieldname] = typeof value === 'string' ? value : String(value)
      }
    }
  } catch (err) {
    await deleteChunks(db, orgId, importId)
    throw uploadProblem(err, maxFileBytes)
  }
  return { fields, file }
}

function uploadProblem(err: unknown, maxFileBytes: number): unknown {
  const code = (err as { code?: string })?.code
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ProblemError(413, 'payload_too_large', 'Payload too large', `The file is larger than ${maxFileBytes} bytes, the largest an import takes (IMPORT_MAX_FILE_BYTES).`)
  if (code === 'FST_FILES_LIMIT') return new ValidationFailed('Send one file per import.', [{ field: 'file', message: 'must be sent once' }])
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new ValidationFailed('The request has more parts than an import takes: `kind`, `file`, `mapping` and `dedupe_by`.')
  if (code === 'FST_MP_PREMATURE_CLOSE') return new ValidationFailed('The upload ended before the file was complete.', [{ field: 'file', message: 'is incomplete' }])
  if (code === 'FST_PROTO_VIOLATION') return new ValidationFailed('A part of the request has a name an import does not take.')
  return err
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
  for await (const piece of part.file as AsyncIterable<Buffer>) {
    try {
      decoder.decode(piece, { stream: true })
    } catch {
      throw notUtf8()
    }
    counter.write(piece)
    bytes += piece.length
    pending.push(piece)
    pendingBytes += piece.length
    if (pendingBytes >= CHUNK_BYTES) await flush()
  }
  try {
    decoder.decode()
  } catch {
    throw notUtf8()
  }
  await flush()
  const { header, rows } = await counter.end()
  if (!header || header.every((h) => h.trim() === '')) throw new ValidationFailed('The file is empty: its first row must name the columns.', [{ field: 'file', message: 'has no header row' }])
  return { name: part.filename || null, bytes, header, rows }
}

function notUtf8(): ValidationFailed {
  return new ValidationFailed('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.', [{ field: 'file', message: 'must be UTF-8' }])
}

/** Parses the file as it streams by, keeping only its header and the count of its data rows. */
function countRecords(): { write(piece: Buffer): void; end(): Promise<{ header: string[] | null; rows: number }> } {
  const parser: Parser = parse(CSV_OPTIONS)
  let header: string[] | null = null
  let rows = 0
  let failure: Error | null = null
  parser.on('readable', () => {
    let record: string[] | null
    while ((record = parser.read() as string[] | null) !== null) {
      if (header === null) header = record
      else if (!isBlankRecord(record)) rows++
    }
  })
  parser.on('error', (err) => (failure ??= err))
  return {
    write(piece) {
      if (failure) throw notCsv(failure)
      parser.write(piece)
    },
    end: () =>
      new Promise((resolve, reject) => {
        if (failure) return reject(notCsv(failure))
        parser.once('end', () => (failure ? reject(notCsv(failure)) : resolve({ header, rows })))
        parser.once('error', (err) => reject(notCsv(err)))
        parser.end()
      }),
  }
}

function notCsv(err: Error): ValidationFailed {
  return new ValidationFailed(`The file is not valid CSV: ${err.message}`, [{ field: 'file', message: 'is not valid CSV' }])
}
