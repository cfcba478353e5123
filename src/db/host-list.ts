/**
 * A connection string naming several hosts, as libpq writes it
 * (`postgres://user@db1:5432,db2:5432/cairn?target_session_attrs=read-write`), split into one URL a
 * host: node-postgres connects to one host only, so src/db/primary-failover.ts tries each in turn.
 */

/** `target_session_attrs` is libpq's; node-postgres would ignore it, and failover implements it (read-write). */
const LIBPQ_ONLY = ['target_session_attrs']

export function hostUrls(connectionString: string): string[] {
  const m = /^(postgres(?:ql)?:\/\/)([^@/?]*@)?([^/?]*)(.*)$/.exec(connectionString)
  if (!m) return [connectionString]
  const [, scheme, userinfo = '', hosts, rest] = m
  return hosts.split(',').map((host) => {
    const url = new URL(`${scheme}${userinfo}${host}${rest}`)
    for (const name of LIBPQ_ONLY) url.searchParams.delete(name)
    return url.href
  })
}
