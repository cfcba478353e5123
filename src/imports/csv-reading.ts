/**
 * How Cairn reads a CSV file (csv-parse, RFC 4180): a leading byte-order mark is skipped, quoted
 * cells may hold commas, quotes and line breaks, rows may have fewer cells than the header (the
 * missing ones are empty) and blank rows are passed over. The upload and the job read a file with
 * the same options, so the rows the upload counted are the rows the job imports.
 */
import { pipeline, Readable } from 'node:stream'
import { parse, type Options } from 'csv-parse'

export const CSV_OPTIONS: Options = {
  bom: true,
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

/** The data rows of a file given as its pieces in order, from the `skip`-th on. */
export async function* csvRows(pieces: AsyncIterable<Buffer>, skip: number): AsyncGenerator<CsvRow> {
  const parser = parse(CSV_OPTIONS)
  // pipeline, not pipe: a failure to read a piece reaches the parser, and so the loop below.
  pipeline(Readable.from(pieces), parser, () => {})
  let number = 0
  let index = 0
  for await (const record of parser as AsyncIterable<string[]>) {
    number++
    if (number === 1 || isBlankRecord(record)) continue
    if (index >= skip) yield { number, index, cells: record }
    index++
  }
}
