/** Minimal valid bodies per kind, and a helper to create a record through the API. */
import type { KindName } from '../../src/records/record-kind.ts'
import type { Member } from './build-app.ts'
import { kindsByName } from '../../src/records/kinds/index.ts'

export const minimalBodies: Record<Exclude<KindName, 'case_comment'>, Record<string, unknown>> = {
  account: { name: 'Globex' },
  contact: { last_name: 'Nakamura' },
  lead: { last_name: 'Okafor', company: 'Initech' },
  opportunity: { name: 'Initech renewal' },
  product: { name: 'Widget' },
  case: { subject: 'Printer on fire' },
  activity: { kind: 'task', subject: 'Call back' },
}

export const topLevelKinds = Object.keys(minimalBodies) as Exclude<KindName, 'case_comment'>[]

export async function createVia(member: Member, kind: Exclude<KindName, 'case_comment'>, body: Record<string, unknown> = {}) {
  const res = await member.request({ method: 'POST', url: `/api/v1/${kindsByName[kind].path}`, payload: { ...minimalBodies[kind], ...body } })
  if (res.statusCode !== 201) throw new Error(`create ${kind} failed: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body) as Record<string, any>
}
