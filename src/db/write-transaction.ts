/**
 * The transaction of a write made for a request: the work, plus, when the request carries an
 * Idempotency-Key, the record of its outcome in the same transaction, so that the outcome commits
 * exactly when the write does. A retry whose first attempt committed gets the outcome back here
 * without the work running again (shared/auth-context.ts WriteReceipt).
 */
import type { Kysely, Transaction } from 'kysely'
import type { WriteReceipt } from '../shared/auth-context.ts'
import type { DB } from './database.ts'

export async function writeTransaction<T>(db: Kysely<DB>, receipt: WriteReceipt | undefined, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const earlier = receipt?.takeReplayed()
  if (earlier) return earlier.outcome as T
  return db.transaction().execute(async (trx) => {
    const outcome = await work(trx)
    if (receipt) await receipt.record(trx, outcome)
    return outcome
  })
}
