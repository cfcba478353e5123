/**
 * "What could not be read is a risk, never a zero" (docs/migration.md, Analyze), for every kind of
 * request the analysis sends to the source: the simulator answers 503 to that kind of request,
 * every time, and the analysis must then either fail naming what it could not read (describeGlobal:
 * without the list of objects there is nothing to analyse), or end with a readiness strictly lower
 * than the same org read without faults and a high-severity risk that names what could not be read
 * and what to do. The source is read by the service's own reader (with quick retries) through the
 * simulator's HTTP API, and analysed by the pure analyzer the analysis job runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceSim } from '../../../tools/source-sim/main.ts'
import { analyzeSource } from '../../../src/migration/analysis/analyze.ts'
import { objectsToDescribe } from '../../../src/migration/analysis/inventory.ts'
import type { AnalysisContext, AnalysisReport } from '../../../src/migration/migration.types.ts'
import { describeFailure } from '../../../src/migration/runner/job-failures.ts'
import { readSourceMetadata } from '../../../src/migration/source/metadata-reader.ts'
import { allowLoopback, connectByOAuth, open, startSim } from '../source/helpers.ts'

// A new organization: only its administrator is a member, no source user is one yet.
const CTX: AnalysisContext = { members: [{ user_id: 'admin', email: 'admin@new-org.test' }], assumed_records_per_second: 5000, now: new Date('2025-03-01T12:00:00Z') }

let sim: SourceSim
let tokens: Awaited<ReturnType<typeof connectByOAuth>>
let clean: AnalysisReport

/** A connection with quick retries (the service's are seconds apart). */
const connect = () => open(tokens, { retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
const analyse = async (sc: Awaited<ReturnType<typeof connect>>) => analyzeSource(await readSourceMetadata(sc, { objectsToDescribe }), CTX)

beforeAll(async () => {
  allowLoopback()
  sim = await startSim({ dataset: 'demo' })
  tokens = await connectByOAuth(sim)
  clean = await analyse(await connect())
})
afterAll(() => sim?.close())

interface Kind {
  kind: string
  /** Matched against the percent-decoded URL of every API call (the simulator's pathPattern). */
  pattern: string
  /** `fail`: the analysis must fail with a reason matching `names`. Else the risk code expected. */
  outcome: 'fail' | string
  /** What the reason or the risk must name. */
  names: RegExp
  object?: string
}

const KINDS: Kind[] = [
  { kind: 'describeGlobal', pattern: '/sobjects$', outcome: 'fail', names: /listing the source objects/ },
  { kind: 'every object describe', pattern: '/sobjects/[^/]+/describe', outcome: 'object_unreadable', names: /describing Account/, object: 'Account' },
  { kind: 'one object describe', pattern: '/sobjects/Contact/describe', outcome: 'object_unreadable', names: /describing Contact/, object: 'Contact' },
  { kind: 'record counts (recordCount and COUNT())', pattern: '/limits/recordCount|SELECT COUNT\\(\\)', outcome: 'object_unreadable', names: /counting Case/, object: 'Case' },
  { kind: 'the API allowance (/limits)', pattern: '/limits$', outcome: 'api_allowance_unknown', names: /allowance/ },
  { kind: 'users', pattern: 'FROM User\\b', outcome: 'users_unreadable', names: /users/ },
  { kind: 'record types', pattern: 'FROM RecordType\\b', outcome: 'record_types_unreadable', names: /record types/ },
  { kind: 'Apex triggers', pattern: 'FROM ApexTrigger\\b', outcome: 'automation_unreadable', names: /Apex triggers/ },
  { kind: 'flows', pattern: 'FROM FlowDefinitionView\\b', outcome: 'automation_unreadable', names: /flows/ },
  { kind: 'workflow rules', pattern: 'FROM WorkflowRule\\b', outcome: 'automation_unreadable', names: /workflow rules/ },
  { kind: 'every email sample', pattern: 'SELECT Email FROM', outcome: 'duplicates_unreadable', names: /Contact emails/, object: 'Contact' },
  { kind: 'the lead email sample', pattern: 'SELECT Email FROM Lead\\b', outcome: 'duplicates_unreadable', names: /Lead emails/, object: 'Lead' },
]

describe('a source that answers 503 to one kind of request, every time', () => {
  it('without faults nothing is unreadable and the readiness is above zero (the baseline)', () => {
    expect(clean.risks.filter((r) => /unreadable|unknown/.test(r.code))).toEqual([])
    expect(clean.readiness.score).toBeGreaterThan(0)
  })

  it.each(KINDS)('$kind: $outcome', async ({ pattern, outcome, names, object }) => {
    // Opened before the faults start: opening proves the token with a /limits call of its own (a
    // source failing there fails the analysis job at "checking the source connection").
    const sc = await connect()
    sim.control.setFaults({ errorRate: 1, errorStatus: 503, pathPattern: pattern })
    try {
      if (outcome === 'fail') {
        const err = await analyse(sc).then(() => null, (e: unknown) => e)
        expect(err, 'the analysis must not end analyzed').not.toBeNull()
        const failure = describeFailure(err, 'analysis')
        expect(failure.kind).toBe('failed')
        expect((failure as { reason: string }).reason).toMatch(names)
        return
      }
      const report = await analyse(sc)
      expect(report.readiness.score, report.readiness.explanation).toBeLessThan(clean.readiness.score)
      const risks = report.risks.filter((r) => r.code === outcome && (object === undefined || r.object === null || r.object === object))
      expect(risks.map((r) => r.code), JSON.stringify(report.risks.map((r) => `${r.code}:${r.severity}`))).toContain(outcome)
      const risk = risks.find((r) => names.test(`${r.title} ${r.detail}`))
      expect(risk, `a ${outcome} risk naming ${names}: ${JSON.stringify(risks)}`).toBeDefined()
      expect(risk!.severity).toBe('high')
      expect(risk!.recommended_action.length).toBeGreaterThan(10)
      // The readiness says why, in words.
      expect(report.readiness.explanation).toMatch(/could not be read|unknown/)
    } finally {
      sim.control.reset()
    }
  })
})
