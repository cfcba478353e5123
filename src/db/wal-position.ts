/**
 * WAL positions (PostgreSQL's `pg_lsn`, written `16/B374D848`) as numbers that compare: what
 * read-your-writes compares a caller's last commit with a replica's replay position by.
 */

/** The position as a bigint; null and the empty text (no position) read as 0. */
export function walPosition(text: string | null | undefined): bigint {
  if (!text) return 0n
  const slash = text.indexOf('/')
  if (slash < 0) throw new Error(`not a WAL position: "${text}"`)
  return (BigInt(`0x${text.slice(0, slash)}`) << 32n) | BigInt(`0x${text.slice(slash + 1)}`)
}
