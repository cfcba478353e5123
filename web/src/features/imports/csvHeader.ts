// The first rows of a CSV file the person picked, read in the browser for the mapping review: the
// header and a sample row, from the file's first 256 KiB (csv-parse with the line breaks the server
// reads: every kind ends a row, so the preview shows the rows the import will have).
import { parse } from 'csv-parse/browser/esm/sync'
import { LINE_BREAKS } from '../../../../src/web-contracts.ts'

const HEAD_BYTES = 256 * 1024

export interface CsvPreview {
  columns: string[]
  /** The first data row, for showing what a column holds. */
  sample: string[]
}

export async function readCsvPreview(file: File): Promise<CsvPreview> {
  const text = await file.slice(0, HEAD_BYTES).text()
  // Two records at most: a record cut off by the slice is never reached.
  const records = parse(text, { bom: true, to: 2, relax_column_count: true, relax_quotes: false, record_delimiter: [...LINE_BREAKS] }) as string[][]
  const [columns = [], sample = []] = records
  return { columns, sample }
}
