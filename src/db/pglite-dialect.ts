/**
 * Kysely's built-in PGlite dialect, with two changes:
 * - PGlite is a single connection, and the stock driver hands that one connection to every caller
 *   at once, so a query issued while another caller's transaction is open runs inside that
 *   transaction (and vanishes if it rolls back). This driver lets one caller hold the connection
 *   at a time, as a pool of size one would.
 * - Statements with parameters run as named prepared statements (pglite-prepared.ts), as they do
 *   on PostgreSQL (prepared-pool.ts). The connection Kysely sees wraps the stock one; every other
 *   call (transactions, release) reaches the stock connection, whose methods Kysely's driver keys
 *   by private symbols.
 */
import type { PGlite } from '@electric-sql/pglite'
import { PGliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely'
import { preparedStatementsOf, type PGlitePreparedStatements } from './pglite-prepared.ts'

class Mutex {
  #tail: Promise<void> = Promise.resolve()
  lock(): Promise<() => void> {
    let release!: () => void
    const next = new Promise<void>((resolve) => (release = resolve))
    const acquired = this.#tail.then(() => release)
    this.#tail = this.#tail.then(() => next)
    return acquired
  }
}

/** The stock connection, with statements that have parameters run prepared. */
class PreparingConnection implements DatabaseConnection {
  readonly stock: DatabaseConnection
  readonly #prepared: PGlitePreparedStatements
  constructor(stock: DatabaseConnection, prepared: PGlitePreparedStatements) {
    this.stock = stock
    this.#prepared = prepared
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const results = await this.#prepared.run(query.sql, query.parameters)
    if (!results) return this.stock.executeQuery<R>(query)
    return { numAffectedRows: results.affectedRows != null ? BigInt(results.affectedRows) : undefined, rows: (results.rows ?? []) as R[] }
  }
  // PGlite streams nothing (the stock connection says so); kept for the interface.
  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.stock.streamQuery<R>(query, chunkSize)
  }
}

const stockOf = (connection: DatabaseConnection) => (connection as PreparingConnection).stock

class SerializedDriver implements Driver {
  readonly #inner: Driver
  readonly #prepared: PGlitePreparedStatements
  readonly #mutex = new Mutex()
  readonly #releases = new Map<DatabaseConnection, () => void>()
  readonly #connections = new WeakMap<DatabaseConnection, PreparingConnection>()
  constructor(inner: Driver, pglite: PGlite) {
    this.#inner = inner
    this.#prepared = preparedStatementsOf(pglite)
  }
  init() {
    return this.#inner.init()
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock()
    const stock = await this.#inner.acquireConnection()
    this.#releases.set(stock, release)
    let connection = this.#connections.get(stock)
    if (!connection) this.#connections.set(stock, (connection = new PreparingConnection(stock, this.#prepared)))
    return connection
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const stock = stockOf(connection)
    await this.#inner.releaseConnection(stock)
    const release = this.#releases.get(stock)
    this.#releases.delete(stock)
    release?.()
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.#inner.beginTransaction(stockOf(connection), settings)
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.#inner.commitTransaction(stockOf(connection))
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.#inner.rollbackTransaction(stockOf(connection))
  }
  savepoint(connection: DatabaseConnection, ...rest: Parameters<NonNullable<Driver['savepoint']>> extends [unknown, ...infer R] ? R : never) {
    return this.#inner.savepoint!(stockOf(connection), ...rest)
  }
  rollbackToSavepoint(connection: DatabaseConnection, ...rest: Parameters<NonNullable<Driver['rollbackToSavepoint']>> extends [unknown, ...infer R] ? R : never) {
    return this.#inner.rollbackToSavepoint!(stockOf(connection), ...rest)
  }
  releaseSavepoint(connection: DatabaseConnection, ...rest: Parameters<NonNullable<Driver['releaseSavepoint']>> extends [unknown, ...infer R] ? R : never) {
    return this.#inner.releaseSavepoint!(stockOf(connection), ...rest)
  }
  destroy() {
    return this.#inner.destroy()
  }
}

export class SerializedPGliteDialect extends PGliteDialect {
  readonly #pglite: PGlite
  constructor(config: { pglite: PGlite }) {
    super(config)
    this.#pglite = config.pglite
  }
  override createDriver(): Driver {
    return new SerializedDriver(super.createDriver(), this.#pglite)
  }
}
