/** How the server-rendered pages answer: the page with its strict headers, the Origin check of their forms, the session cookie. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from './session.service.ts'

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html)
}

/** Refuses form posts from other sites (login CSRF); browsers always send Origin on POST. */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  if (!origin) return true
  const publicOrigin = new URL(request.server.config.publicUrl).origin
  const hostOrigin = `${request.protocol}://${request.host}`
  return origin === publicOrigin || origin === hostOrigin
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.server.config.publicUrl.startsWith('https:'),
    maxAge: request.server.config.sessionTtlSeconds,
  })
}
