/**
 * Kysely's built-in PGlite dialect, with one fix: PGlite is a single connection, and the stock
 * driver hands that one connection to every caller at once, so a query issued while another caller's
 * transaction is open runs inside that transaction (and vanishes if it rolls back). This driver lets
 * one caller hold the connection at a time, as a pool of size one would.
 */
import { PGliteDialect, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely'

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

class SerializedDriver implements Driver {
  readonly #inner: Driver
  readonly #mutex = new Mutex()
  readonly #releases = new Map<DatabaseConnection, () => void>()
  constructor(inner: Driver) {
    this.#inner = inner
  }
  init() {
    return this.#inner.init()
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock()
    const connection = await this.#inner.acquireConnection()
    this.#releases.set(connection, release)
    return connection
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.#inner.releaseConnection(connection)
    const release = this.#releases.get(connection)
    this.#releases.delete(connection)
    release?.()
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.#inner.beginTransaction(connection, settings)
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.#inner.commitTransaction(connection)
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.#inner.rollbackTransaction(connection)
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) {
    return this.#inner.savepoint!(...args)
  }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) {
    return this.#inner.rollbackToSavepoint!(...args)
  }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) {
    return this.#inner.releaseSavepoint!(...args)
  }
  destroy() {
    return this.#inner.destroy()
  }
}

export class SerializedPGliteDialect extends PGliteDialect {
  override createDriver(): Driver {
    return new SerializedDriver(super.createDriver())
  }
}
