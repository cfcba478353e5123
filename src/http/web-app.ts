/**
 * Serves the signed-in single-page app (web/, built by Vite into web/dist) under /app. Every /app
 * path answers index.html so that deep links work; a visitor without a session is sent to sign-in.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import type { SessionLookup } from './auth.ts'

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist')

export async function webAppRoutes(app: FastifyInstance, opts: { sessions: SessionLookup }): Promise<void> {
  const indexFile = path.join(WEB_DIST, 'index.html')
  const hasBuild = fs.existsSync(indexFile)
  if (hasBuild) {
    await app.register(fastifyStatic, { root: path.join(WEB_DIST, 'assets'), prefix: '/app/assets/', decorateReply: false, immutable: true, maxAge: '365d' })
  }
  const serveIndex = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const token = request.cookies[opts.sessions.cookie]
    if (!token || !(await opts.sessions.find(token))) {
      return reply.redirect(`/sign-in?return_to=${encodeURIComponent(request.url)}`, 303)
    }
    if (!hasBuild) {
      return reply.status(503).type('text/plain').send('The web app is not built. Run `npm run build:web` (npm start does it for you).')
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'")
      .type('text/html; charset=utf-8')
      .send(fs.createReadStream(indexFile))
  }
  app.get('/app', { schema: { hide: true } }, serveIndex)
  app.get('/app/*', { schema: { hide: true } }, serveIndex)
}
