/**
 * The dispatcher's in-flight accounting alone: room for a claim from the sending slots and from the
 * unwritten outcomes, refills in batches, the pause while outcomes wait to be written, and the
 * per-webhook counts.
 */
import { describe, expect, it } from 'vitest'
import { SlotCounter, UNWRITTEN_PER_SLOT } from '../../src/webhooks/slot-counter.ts'

describe('SlotCounter', () => {
  it('gives a claim the free sending slots, and counts per webhook until the outcome is written', () => {
    const slots = new SlotCounter(4)
    expect(slots.room()).toBe(4)
    slots.startSending('a')
    slots.startSending('a')
    slots.startSending('b')
    expect(slots.room()).toBe(1)
    expect([slots.inFlight('a'), slots.inFlight('b'), slots.inFlight('c')]).toEqual([2, 1, 0])
    slots.sent()
    expect(slots.room()).toBe(2)
    expect(slots.inFlight('a')).toBe(2) // sent, not yet written
    slots.written('a')
    expect(slots.inFlight('a')).toBe(1)
    expect(slots.empty).toBe(false)
  })

  it('asks for a refill only once half the slots or fewer are sending', () => {
    const slots = new SlotCounter(4)
    for (let i = 0; i < 4; i++) slots.startSending('a')
    expect(slots.sent()).toBe(false) // 3 sending
    expect(slots.sent()).toBe(true) // 2 sending
  })

  it('frees an abandoned delivery with nothing to write', () => {
    const slots = new SlotCounter(2)
    slots.startSending('a')
    slots.abandon('a')
    expect(slots.empty).toBe(true)
    expect(slots.inFlight('a')).toBe(0)
    expect(slots.room()).toBe(2)
  })

  it('pauses claims while UNWRITTEN_PER_SLOT slots worth of outcomes wait, and resumes once half a round of slots is written', () => {
    const slots = new SlotCounter(2)
    const max = 2 * UNWRITTEN_PER_SLOT
    for (let i = 0; i < max; i++) {
      slots.startSending('a')
      slots.sent()
    }
    expect(slots.room()).toBe(0)
    slots.claimPlanned(0)
    // room: max - unwritten; resumes at concurrency / 2 = 1 free.
    expect(slots.written('a')).toBe(true)
    // Only once per pause.
    expect(slots.written('a')).toBe(false)
  })

  it('does not report a resume when the pause was for sending slots, not writes', () => {
    const slots = new SlotCounter(2)
    slots.startSending('a')
    slots.startSending('a')
    slots.claimPlanned(0)
    slots.sent()
    expect(slots.written('a')).toBe(false)
  })

  it('counts deliveries started since the last turn once', () => {
    const slots = new SlotCounter(8)
    slots.startSending('a')
    slots.startSending('b')
    expect(slots.takeSentSinceTurn()).toBe(2)
    expect(slots.takeSentSinceTurn()).toBe(0)
  })
})
