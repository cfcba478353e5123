// Who made a change, in words: "Ana Diaz via Claude Desktop", "Ana Diaz", "CSV import",
// "Migration"; and the channel (the door the change came in by) as a short label.
import type { Actor, Channel, Operation } from '../../api/operations.ts'
import { appKinds, type RecordKind } from '../../kinds.ts'

export const CHANNEL_LABELS: Record<Channel, string> = {
  app: 'App',
  api: 'API',
  mcp: 'AI assistant (MCP)',
  import: 'CSV import',
  migration: 'Migration',
  system: 'Cairn',
}

export const CHANNEL_COLORS: Record<Channel, string> = { app: 'blue', api: 'cyan', mcp: 'grape', import: 'teal', migration: 'orange', system: 'gray' }

/** The actor's headline: a person (through a client when one was used), else what the channel was. */
export function actorText(actor: Actor): string {
  const { user, client, channel } = actor
  if (channel === 'import') return 'CSV import'
  if (channel === 'migration') return 'Migration'
  if (user && client) return `${user.name} via ${client.name}`
  if (user) return user.name
  if (client) return client.name
  return CHANNEL_LABELS[channel] ?? channel
}

/** The person behind an import or migration, said after the headline ("by Ana Diaz"); null when the headline names them. */
export function actorDetail(actor: Actor): string | null {
  if ((actor.channel === 'import' || actor.channel === 'migration') && actor.user) return `by ${actor.user.name}${actor.client ? ` via ${actor.client.name}` : ''}`
  return null
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`

/** "3 created, 1 updated" — the operation's counts that are not zero. */
export function countsText(counts: Operation['counts']): string {
  const parts = (['created', 'updated', 'deleted', 'restored'] as const).filter((k) => counts[k] > 0).map((k) => `${counts[k].toLocaleString()} ${k}`)
  return parts.length > 0 ? parts.join(', ') : 'No changes'
}

/** A kind the service named, by its name (`account`) or its path (`accounts`). */
export function kindNamed(value: string): RecordKind | undefined {
  return appKinds.find((k) => k.kind.name === value || k.kind.path === value)?.kind
}

/** "Accounts, Contacts" under their plural labels. */
export function kindsText(kinds: readonly string[]): string {
  return kinds.map((k) => kindNamed(k)?.labelPlural ?? k).join(', ')
}

/** What undoing the operation will do, one phrase per count: "delete 12 created records". */
export function undoEffects(counts: Operation['counts']): string[] {
  const out: string[] = []
  if (counts.created > 0) out.push(`delete the ${plural(counts.created, 'record it created', 'records it created')}`)
  if (counts.updated > 0) out.push(`set back the fields of the ${plural(counts.updated, 'record it changed', 'records it changed')}`)
  if (counts.deleted > 0) out.push(`restore the ${plural(counts.deleted, 'record it deleted', 'records it deleted')}, with their ids`)
  if (counts.restored > 0) out.push(`delete again the ${plural(counts.restored, 'record it restored', 'records it restored')}`)
  return out
}
