/**
 * The fast CSV reader (src/imports/simple-csv.ts) against csv-parse with the options imports use:
 * on random files cut into random pieces (quotes, commas, every kind of line break, mixed too, multi-byte
 * characters split between pieces, a byte-order mark), whenever the fast reader does not give up,
 * csv-parse must accept the file and give the very same records.
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'csv-parse'
import { CSV_OPTIONS, csvRows, isBlankRecord, type CsvRow } from '../../src/imports/csv-reading.ts'
import { SimpleCsv } from '../../src/imports/simple-csv.ts'

/** A small seeded generator (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

async function withCsvParse(pieces: Buffer[]): Promise<string[][] | Error> {
  return new Promise((resolve) => {
    const parser = parse(CSV_OPTIONS)
    const records: string[][] = []
    parser.on('readable', () => {
      let r: string[] | null
      while ((r = parser.read() as string[] | null) !== null) records.push(r)
    })
    parser.on('error', (err) => resolve(err))
    parser.on('end', () => resolve(records))
    for (const p of pieces) parser.write(p)
    parser.end()
  })
}

function withSimple(pieces: Buffer[]): string[][] | null {
  const reader = new SimpleCsv()
  const out: string[][] = []
  for (const p of pieces) {
    const records = reader.push(p)
    if (records === null) return null
    out.push(...records)
  }
  const last = reader.end()
  return last === null ? null : [...out, ...last]
}

function cut(bytes: Buffer, rnd: () => number, largest = 40): Buffer[] {
  const pieces: Buffer[] = []
  let at = 0
  while (at < bytes.length) {
    const size = 1 + Math.floor(rnd() * (rnd() < 0.5 ? 4 : largest))
    pieces.push(bytes.subarray(at, at + size))
    at += size
  }
  return pieces
}

/** Files of a few records, mostly well formed, with one oddity now and then. */
function randomFile(rnd: () => number): string {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const breakOf = pick(['\r\n', '\n', '\r'])
  const cellText = () => Array.from({ length: Math.floor(rnd() * 5) }, () => pick(['a', 'b', ' ', 'é', '€', '😀', ',', '"', '\r', '\n', '\r\n'])).join('')
  const lines: string[] = []
  for (let r = Math.floor(rnd() * 6); r >= 0; r--) {
    const cells = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => {
      const v = cellText()
      const mode = rnd()
      if (mode < 0.45) return `"${v.replaceAll('"', '""')}"`
      if (mode < 0.9) return v.replace(/[",\r\n]/g, 'x')
      return v // raw: may break the quoting rules
    })
    lines.push(cells.join(','))
  }
  // One kind of line break throughout, or (as files stitched together from several tools have) a mix.
  const mixed = rnd() < 0.3
  let text = lines.map((line, i) => (i === 0 ? line : (mixed ? pick(['\r\n', '\n', '\r']) : breakOf) + line)).join('')
  if (rnd() < 0.6) text += breakOf
  if (rnd() < 0.1) text += breakOf
  if (rnd() < 0.1) text = `\uFEFF${text}`
  return text
}

describe('the fast CSV reader', () => {
  it('gives the records csv-parse gives whenever it does not give up (5,000 random files)', async () => {
    const rnd = random(19)
    let accepted = 0
    let gaveUp = 0
    for (let i = 0; i < 5000; i++) {
      const text = randomFile(rnd)
      const pieces = cut(Buffer.from(text), rnd)
      const fast = withSimple(pieces)
      if (fast === null) {
        gaveUp++
        continue
      }
      accepted++
      const reference = await withCsvParse(pieces)
      expect(reference, JSON.stringify(text)).not.toBeInstanceOf(Error)
      expect(fast, JSON.stringify(text)).toEqual(reference)
    }
    // Both outcomes must be exercised for the comparison to mean something.
    expect(accepted).toBeGreaterThan(1500)
    expect(gaveUp).toBeGreaterThan(500)
  })

  it('reads a spreadsheet export (quoted cells with commas, quotes and line breaks) without giving up', async () => {
    const rows = ['First Name,Last Name,Description']
    for (let i = 0; i < 2000; i++) rows.push(`Ann,"O""Brien ${i}","Met at the conference,\r\n""very"" interested"`)
    const bytes = Buffer.from(`\uFEFF${rows.join('\r\n')}\r\n`)
    const pieces = cut(bytes, random(7)).concat()
    const fast = withSimple(pieces)
    expect(fast).not.toBeNull()
    expect(fast).toEqual(await withCsvParse(pieces))
    expect(fast!.length).toBe(2001)
  })

  it('ends a row at every line break outside quotes, CRLF, LF and CR mixed, as csv-parse does; inside quotes each stays in the value', async () => {
    const text = 'name,note\r\nA,crlf\nB,lf\rC,cr\r\n"D\r\nE","x\ny"\r"F\rG",last\n'
    const expected = [['name', 'note'], ['A', 'crlf'], ['B', 'lf'], ['C', 'cr'], ['D\r\nE', 'x\ny'], ['F\rG', 'last']]
    // Whole, and byte by byte (a CR at the end of one piece, its LF at the start of the next).
    for (const pieces of [[Buffer.from(text)], [...Buffer.from(text)].map((b) => Buffer.from([b]))]) {
      expect(withSimple(pieces)).toEqual(expected)
      expect(await withCsvParse(pieces)).toEqual(expected)
    }
  })

  it('gives up on what only csv-parse may judge', () => {
    for (const text of ['a,b"c\n', '"a"b,c\n', '"never closed\n', `"${'x'.repeat(70_000)}"\n`]) {
      expect(withSimple([Buffer.from(text)]), JSON.stringify(text.slice(0, 20))).toBeNull()
    }
  })

  it("gives the job's rows (numbers, skip) as csv-parse alone would, also when it gives up mid-file", async () => {
    const rnd = random(5)
    let switched = 0
    for (let i = 0; i < 1500; i++) {
      // Several small files one after another: a fault, if any, comes after records already given.
      // Now and then a record too long for the fast reader (csv-parse takes it) between them.
      const files = Array.from({ length: 4 }, () => randomFile(rnd))
      if (rnd() < 0.1) files.splice(1 + Math.floor(rnd() * 3), 0, `"${'x'.repeat(66_000)}",long`)
      const text = files.join('\n')
      const pieces = cut(Buffer.from(text), rnd, text.length > 65_536 ? 8192 : 40)
      const skip = Math.floor(rnd() * 4)
      const reference = await withCsvParse(pieces)
      const expected: CsvRow[] = []
      if (!(reference instanceof Error)) {
        let number = 0
        let index = 0
        for (const cells of reference) {
          number++
          if (number === 1 || isBlankRecord(cells)) continue
          if (index >= skip) expected.push({ number, index, cells })
          index++
        }
      }
      const got: CsvRow[] = []
      let failed = false
      try {
        for await (const row of csvRows(async function* () { yield* pieces }, skip)) got.push(row)
      } catch {
        failed = true
      }
      expect(failed, JSON.stringify(text)).toBe(reference instanceof Error)
      if (failed) continue
      expect(got, JSON.stringify(text)).toEqual(expected)
      // The case that matters: the fast reader gave records, then gave up.
      const reader = new SimpleCsv()
      let given = 0
      for (const p of pieces) {
        const records = reader.push(p)
        if (records === null) break
        given += records.length
      }
      if (reader.gaveUp && given > 0) switched++
    }
    expect(switched).toBeGreaterThan(20)
  })
})
