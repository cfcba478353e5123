/**
 * How Cairn reads a CSV file (csv-parse, RFC 4180): a leading byte-order mark is skipped, quoted
 * cells may hold commas, quotes and line breaks, rows may have fewer cells than the header (the
 * missing ones are empty) and blank rows are passed over. Outside quotes every line break ends a
 * row, whichever kind it is: files stitched together from several tools mix CRLF, LF and CR, and
 * csv-parse's default (the kind it meets first, the others being data) read three such rows as one
 * record with line breaks in it. The upload and the job read a file with the same options, so the
 * rows the upload counted are the rows the job imports.
 */
import { pipeline, Readable } from 'node:stream'
import { parse, type Options } from 'csv-parse'
import { SimpleCsv } from './simple-csv.ts'
import { LINE_BREAKS } from './line-breaks.ts'

export const CSV_OPTIONS: Options = {
  bom: true,
  record_delimiter: [...LINE_BREAKS],
  relax_column_count: true,
  skip_empty_lines: false,
  // One cell of a megabyte is already no spreadsheet row; larger means a broken quote.
  max_record_size: 1024 * 1024,
}

export function isBlankRecord(record: readonly string[]): boolean {
  return record.every((cell) => cell.trim() === '')
}

export interface CsvRow {
  /** The row's number as a spreadsheet shows it: the header is row 1. */
  number: number
  /** Its position among the file's data rows (blank rows not counted), from 0. */
  index: number
  cells: string[]
}

/**
 * The data rows of a file given as its pieces in order, from the `skip`-th on. `open` answers the
 * pieces from the start each time it is called: the fast reader (simple-csv.ts) takes the file
 * while it can; a file it gives up on is read again from the start by csv-parse, which goes on
 * after the records already given (the fast reader gives exactly csv-parse's records up to there).
 */
export async function* csvRows(open: () => AsyncIterable<Buffer>, skip: number): AsyncGenerator<CsvRow> {
  let number = 0
  let index = 0
  // Numbers every record, skips the header and blank rows, and the first `skip` data rows.
  function* rowsOf(records: readonly string[][]): Generator<CsvRow> {
    for (const record of records) {
      number++
      if (number === 1 || isBlankRecord(record)) continue
      if (index >= skip) yield { number, index, cells: record }
      index++
    }
  }
  const fast = new SimpleCsv()
  for await (const piece of open()) {
    const records = fast.push(piece)
    if (records === null) break
    yield* rowsOf(records)
  }
  const last = fast.end()
  if (last !== null) {
    yield* rowsOf(last)
    return
  }
  const given = number
  let seen = 0
  const parser = parse(CSV_OPTIONS)
  // pipeline, not pipe: a failure to read a piece reaches the parser, and so the loop below.
  pipeline(Readable.from(open()), parser, () => {})
  for await (const record of parser as AsyncIterable<string[]>) {
    if (++seen <= given) continue
    yield* rowsOf([record])
  }
}
