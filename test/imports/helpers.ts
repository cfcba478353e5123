/** Multipart bodies for `POST /api/v1/imports`, built by the platform's own FormData encoder; a runner to finish them. */
import type { FastifyInstance } from 'fastify'
import type { Member } from '../helpers/build-app.ts'
import { startImportRunner } from '../../src/imports/runner.ts'
import { systemClock } from '../../src/shared/clock.ts'
import { sourceLinks } from '../../src/migration/index.ts'

export async function multipart(parts: Record<string, string>, file?: { text: string | Buffer; name?: string }): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(parts)) form.append(name, value)
  if (file) form.append('file', new Blob([typeof file.text === 'string' ? file.text : new Uint8Array(file.text)]), file.name ?? 'records.csv')
  const encoded = new Response(form)
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } }
}

/** Starts an import as `member`; the answer as sent. */
export async function startImport(member: Member, parts: Record<string, string>, csv?: string | Buffer, headers: Record<string, string> = {}) {
  const body = await multipart(parts, csv === undefined ? undefined : { text: csv })
  return member.request({ method: 'POST', url: '/api/v1/imports', payload: body.payload, headers: { ...body.headers, ...headers } })
}

/** Runs every queued import to its end with a real runner, as a worker process would. */
export async function runImports(app: FastifyInstance, target: string): Promise<void> {
  const runner = startImportRunner({ db: app.db, journal: app.changeJournal, sourceAliases: sourceLinks, clock: systemClock, log: app.log, concurrency: 1, leaseSeconds: 30, single: target === 'pglite' })
  await new Promise((r) => setTimeout(r, 50))
  await runner.settled()
  await runner.stop()
}
