/**
 * The change feed's reading rules, shared by the JSON page and the SSE stream: which event types a
 * caller may read, where a read starts, and each event as the caller may see it.
 */
import { recordAccess } from '../records/index.ts'
import type { Executor } from '../records/index.ts'
import { kindsByName } from '../records/contracts.ts'
import type { AuthContext } from '../shared/auth-context.ts'
import { ProblemError, ValidationFailed } from '../shared/errors.ts'
import { EVENT_NAMES, type EventEntity } from './event-catalogue.ts'
import { feedPage } from './journal.repository.ts'

export class EventsExpired extends ProblemError {
  constructor(after: number, oldest: number) {
    super(410, 'events_expired', 'Events expired', `Events up to seq ${oldest - 1} have passed the retention period; after=${after} cannot be continued. Start again from after=${oldest - 1} (or without after) and rebuild what you hold.`)
    this.extensions = { oldest_seq: oldest }
  }
}

/**
 * The types asked for (all when `raw` is absent), limited to the kinds the caller may read; an
 * unknown name is a 400 naming the valid ones. Null: every type, no filter needed.
 */
export function readableTypes(auth: AuthContext, raw: string | undefined): string[] | null {
  const readable = (type: string) => recordAccess.mayRead(kindsByName[type.slice(0, type.indexOf('.')) as EventEntity], auth)
  if (raw === undefined) return EVENT_NAMES.every(readable) ? null : EVENT_NAMES.filter(readable)
  const asked = [...new Set(raw.split(',').map((t) => t.trim()).filter((t) => t !== ''))]
  const unknown = asked.filter((t) => !EVENT_NAMES.includes(t))
  if (asked.length === 0 || unknown.length > 0) {
    throw new ValidationFailed(`types must be a comma-separated list of event types (${EVENT_NAMES.join(', ')}).`, [
      { field: 'types', message: unknown.length > 0 ? `unknown event type ${unknown.join(', ')}` : 'must name at least one event type' },
    ])
  }
  return asked.filter(readable)
}

function shaped(auth: AuthContext, row: { seq: number; body: string }): FeedEvent {
  const { id, ...rest } = recordAccess.eventForCaller(auth, JSON.parse(row.body) as { id: string; type: string })
  return { seq: row.seq, type: rest.type, json: JSON.stringify({ id, seq: row.seq, ...rest }) }
}

export interface FeedEvent {
  seq: number
  type: string
  json: string
}

/**
 * Numbered events after `after`, shaped for the caller. `next_after` is where the next read starts:
 * the last event's seq, or when the page is not full the organization's newest seq (a filtered
 * reader skips what it does not want).
 */
export async function readFeed(
  db: Executor,
  auth: AuthContext,
  after: number | null,
  limit: number,
  types: string[] | null,
): Promise<{ events: FeedEvent[]; hasMore: boolean; nextAfter: number }> {
  if (types !== null && types.length === 0) return { events: [], hasMore: false, nextAfter: after ?? 0 }
  const read = await feedPage(db, auth.orgId, { after }, limit + 1, types)
  if (after !== null && after < read.pruned) throw new EventsExpired(after, read.pruned + 1)
  if (after !== null && after > read.newest) {
    throw new ValidationFailed(`after=${after} is beyond the newest event (seq ${read.newest}).`, [{ field: 'after', message: `must be at most ${read.newest}` }])
  }
  const hasMore = read.rows.length > limit
  const rows = hasMore ? read.rows.slice(0, limit) : read.rows
  const events = rows.map((row) => shaped(auth, row))
  const start = after ?? read.pruned
  const nextAfter = hasMore ? rows[rows.length - 1].seq : Math.max(start, read.newest)
  return { events, hasMore, nextAfter }
}


/**
 * The newest events first, below `before` (null: from the newest), for logs and UIs: `nextBefore`
 * continues to older ones; `newest` is where a reader that wants what comes next polls from.
 */
export async function readFeedBackwards(
  db: Executor,
  auth: AuthContext,
  before: number | null,
  limit: number,
  types: string[] | null,
): Promise<{ events: FeedEvent[]; hasMore: boolean; nextBefore: number | null; newest: number }> {
  if (types !== null && types.length === 0) return { events: [], hasMore: false, nextBefore: null, newest: 0 }
  const read = await feedPage(db, auth.orgId, { before }, limit + 1, types)
  const hasMore = read.rows.length > limit
  const rows = hasMore ? read.rows.slice(0, limit) : read.rows
  return { events: rows.map((row) => shaped(auth, row)), hasMore, nextBefore: hasMore ? rows[rows.length - 1].seq : null, newest: read.newest }
}
