/**
 * Named prepared statements on the embedded database. PGlite's `query` parses, describes, binds
 * and executes every statement anew, in five calls into its WebAssembly, then syncs: for the
 * bearer list statement that cost 2.5-4 ms a run against 0.5-1 ms for the same statement prepared
 * once under a name and then bound and executed in one call (docs/benchmarks.md, "The embedded
 * default"). The same rules as prepared-pool.ts: names derive from the text, at most MAX_PREPARED
 * texts are prepared, longer texts and statements without parameters run unnamed, and a statement
 * whose plan went stale after a schema change runs unnamed after that failure.
 *
 * Statements go through PGlite's protocol interface, which takes no lock of its own: each runs
 * under PGlite's query lock (`runExclusive`), as its own `query` does. Values are written and rows
 * read by PGlite's own serializers and type parsers, so the answers are those of `query`.
 */
import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite'
import { answerCollector, readAnswer } from './pglite-answer.ts'
import { isStalePlan, nameToPrepare } from './statement-names.ts'

const { serialize } = protocol

/**
 * The statements of one PGlite session. Names are the session's, so there is one of these per
 * PGlite instance (`preparedStatementsOf`), whoever runs statements on it.
 */
export class PGlitePreparedStatements {
  readonly #pglite: PGlite
  /** Prepared statements by name, with their parameters' type oids (from Describe). */
  readonly #prepared = new Map<string, number[]>()
  readonly #unusable = new Set<string>()

  constructor(pglite: PGlite) {
    this.#pglite = pglite
  }

  /** The statement's results, or null when it is not one to prepare (the caller runs it as usual). */
  async run(text: string, values: readonly unknown[]): Promise<Results<Record<string, unknown>> | null> {
    const name = nameToPrepare(text, values.length, this.#prepared, this.#unusable)
    if (name === null) return null
    try {
      return await this.#pglite.runExclusive(() => this.#execute(name, text, values))
    } catch (err) {
      // The statement that meets a stale plan fails; it runs unnamed from then on. (The embedded
      // database changes its schema only at start, before any statement is prepared; the pool for
      // PostgreSQL, where a rolling deploy can, reruns it at once.)
      if (isStalePlan(err)) this.#unusable.add(name)
      throw err
    }
  }

  async #execute(name: string, text: string, values: readonly unknown[]): Promise<Results<Record<string, unknown>>> {
    const oids = this.#prepared.get(name) ?? (await this.#prepare(name, text))
    // As PGlite's query writes them: null stays null; a type without a serializer is sent as text.
    const written = values.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = this.#pglite.serializers[oids[i]]
      return serializer ? serializer(value) : String(value)
    })
    // The answer is read from its bytes (pglite-answer.ts): execProtocol would copy it four times.
    const answer = answerCollector()
    await this.#pglite.execProtocolRawStream(Buffer.concat([serialize.bind({ statement: name, values: written }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]), {
      onRawData: answer.onRawData,
    })
    return readAnswer(answer.bytes(), this.#pglite.parsers)
  }

  /** Parses the statement under its name; answers its parameters' type oids. */
  async #prepare(name: string, text: string): Promise<number[]> {
    // Close first: a statement of that name left by a preparation that failed half-way would
    // refuse the Parse. Closing a missing one is no error.
    const described = await this.#pglite.execProtocol(
      Buffer.concat([serialize.close({ type: 'S', name }), serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    )
    const oids = parse.parseDescribeStatementResults(described.messages)
    this.#prepared.set(name, oids)
    return oids
  }
}

const sessions = new WeakMap<PGlite, PGlitePreparedStatements>()

/** The prepared statements of this PGlite instance's session. */
export function preparedStatementsOf(pglite: PGlite): PGlitePreparedStatements {
  let statements = sessions.get(pglite)
  if (!statements) sessions.set(pglite, (statements = new PGlitePreparedStatements(pglite)))
  return statements
}
