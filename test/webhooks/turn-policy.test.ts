/**
 * The dispatcher's turn policy alone, with no clock, timers or database: claim sizes and spacing
 * for a quiet, a busy and a saturated process, the backlog rule, and when an asked-for turn runs.
 */
import { describe, expect, it } from 'vitest'
import { backlogAfter, BUSY_TURN_MS, delayUntilTurn, FIRST_TURN, SATURATED_CLAIM, SATURATED_TURN_MS, SUCCESS_BATCH, TURN_MS, turnPolicy, WAKE_COALESCE_MS, type TurnLoad } from '../../src/webhooks/turn-policy.ts'

const quiet: TurnLoad = { at: 10_000, utilization: 0.1, elapsedMs: 10, requestsServed: 0, sent: 0, room: 32 }

describe('turnPolicy', () => {
  it('claims all the room there is in a quiet process, spaced TURN_MS', () => {
    const plan = turnPolicy(FIRST_TURN, quiet)
    expect(plan).toMatchObject({ claim: 32, spacingMs: TURN_MS, yielding: false })
    expect(plan.state.lastClaimAt).toBe(10_000)
  })

  it('claims nothing when there is no room, and keeps the last claim time', () => {
    const plan = turnPolicy({ averageUtilization: 0, lastClaimAt: 5_000 }, { ...quiet, room: -3 })
    expect(plan.claim).toBe(0)
    expect(plan.state.lastClaimAt).toBe(5_000)
  })

  it('spaces turns BUSY_TURN_MS after a busy interval without yielding', () => {
    const plan = turnPolicy(FIRST_TURN, { ...quiet, utilization: 0.8 })
    expect(plan).toMatchObject({ claim: 32, spacingMs: BUSY_TURN_MS, yielding: false })
  })

  it('averages utilization over about a second: one short busy turn of a quiet process does not yield', () => {
    const once = turnPolicy(FIRST_TURN, { ...quiet, utilization: 1, elapsedMs: 10, requestsServed: 100 })
    expect(once.yielding).toBe(false)
    expect(once.state.averageUtilization).toBeCloseTo(0.01)
  })

  it('yields to requests when saturated for a second and requests outnumber half the deliveries sent', () => {
    const saturated = { averageUtilization: 0.95, lastClaimAt: 0 }
    const plan = turnPolicy(saturated, { ...quiet, utilization: 0.95, elapsedMs: 50, requestsServed: 40, sent: 80, room: 200 })
    expect(plan).toMatchObject({ claim: SATURATED_CLAIM, spacingMs: SATURATED_TURN_MS, yielding: true })
    // Within SATURATED_TURN_MS of that claim, the next turn claims nothing.
    const next = turnPolicy(plan.state, { ...quiet, at: quiet.at + SATURATED_TURN_MS - 1, utilization: 0.95, elapsedMs: 50, requestsServed: 40, sent: 0, room: 200 })
    expect(next).toMatchObject({ claim: 0, yielding: true })
    expect(next.state.lastClaimAt).toBe(quiet.at)
    const later = turnPolicy(next.state, { ...quiet, at: quiet.at + SATURATED_TURN_MS, utilization: 0.95, elapsedMs: 1, requestsServed: 1, sent: 0, room: 10 })
    expect(later).toMatchObject({ claim: 10, yielding: true })
  })

  it('does not yield when deliveries far outnumber requests, nor in a process that serves none', () => {
    const saturated = { averageUtilization: 0.95, lastClaimAt: 0 }
    expect(turnPolicy(saturated, { ...quiet, utilization: 0.95, requestsServed: 10, sent: 21 }).yielding).toBe(false)
    expect(turnPolicy(saturated, { ...quiet, utilization: 0.95, requestsServed: null, sent: 0 })).toMatchObject({ yielding: false, spacingMs: BUSY_TURN_MS, claim: 32 })
  })
})

describe('delayUntilTurn', () => {
  const asked = { now: 1_000, lastTurnAt: 995, spacingMs: TURN_MS, yielding: false, backlog: false, successesWaiting: 0 }

  it('waits out the spacing since the last turn', () => {
    expect(delayUntilTurn(asked)).toBe(5)
    expect(delayUntilTurn({ ...asked, spacingMs: BUSY_TURN_MS })).toBe(45)
  })

  it('never runs sooner than WAKE_COALESCE_MS after a wake, so one claim takes several commits', () => {
    expect(delayUntilTurn({ ...asked, lastTurnAt: -Infinity })).toBe(WAKE_COALESCE_MS)
    expect(delayUntilTurn({ ...asked, lastTurnAt: 999 - TURN_MS })).toBe(WAKE_COALESCE_MS)
  })

  it('runs at once for a backlog (unless yielding) or a full batch of successes', () => {
    expect(delayUntilTurn({ ...asked, backlog: true })).toBe(0)
    expect(delayUntilTurn({ ...asked, backlog: true, yielding: true, spacingMs: SATURATED_TURN_MS })).toBe(245)
    expect(delayUntilTurn({ ...asked, successesWaiting: SUCCESS_BATCH - 1 })).toBe(5)
    expect(delayUntilTurn({ ...asked, successesWaiting: SUCCESS_BATCH, yielding: true })).toBe(0)
  })
})

describe('backlogAfter', () => {
  it('is a backlog only when a claim got all it asked for', () => {
    expect(backlogAfter(32, 32)).toBe(true)
    expect(backlogAfter(32, 31)).toBe(false)
    expect(backlogAfter(0, 0)).toBe(false)
    expect(backlogAfter(32, 'failed')).toBe(false)
  })
})
