// The connect-time guard connects to the address it checked but keeps the original host name as
// the TLS server name, so certificates are still verified against the name in src_instance_url.
// A throwaway CA and certificates (openssl) stand in for the platform's.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSourceConnection } from '../../../src/migration/source/source-connection.ts'
import { SourceUnreachable } from '../../../src/migration/source/source-errors.ts'
import { configureSourceOutbound } from '../../../src/migration/source/source-outbound.ts'

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'])
    return true
  } catch {
    return false
  }
})()

let dir: string
let server: https.Server
let port: number

describe.skipIf(!hasOpenssl)('TLS through the connect-time guard', () => {
  let ca: Buffer
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-tls-'))
    // subjectAltName for "localhost" only: the certificate does not name 127.0.0.1.
    execFileSync('sh', ['-c', `
      openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj "/CN=Cairn Test CA" &&
      openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost" &&
      printf "subjectAltName=DNS:localhost" > san.ext &&
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext`], { cwd: dir, stdio: 'pipe' })
    ca = readFileSync(join(dir, 'ca.pem'))
    const identity = { organization_id: '00D000000000001AAA', user_id: '005000000000001AAA', is_sandbox: false }
    server = https.createServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) }, (req, res) => {
      res.setHeader('content-type', 'application/json')
      if (req.url === '/services/data/') return res.end(JSON.stringify([{ label: 'Summer', url: '/services/data/v62.0', version: '62.0' }]))
      if (req.url === '/services/data/v62.0/limits') return res.end(JSON.stringify({ DailyApiRequests: { Max: 10, Remaining: 9 } }))
      if (req.url === '/services/oauth2/userinfo') return res.end(JSON.stringify(identity))
      res.statusCode = 404
      res.end(JSON.stringify([{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    configureSourceOutbound({ allowPrivate: true, ca })
  })
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('verifies the certificate against the host name while connecting to the checked address', async () => {
    const sc = await openSourceConnection({ instanceUrl: `https://localhost:${port}`, accessToken: 'token-for-tls-test' }, { allowPrivate: true })
    expect(sc.identity.organizationId).toBe('00D000000000001AAA')
  })

  it('refuses a certificate that does not name the host (127.0.0.1 is not in it)', async () => {
    const err = await openSourceConnection({ instanceUrl: `https://127.0.0.1:${port}`, accessToken: 'token-for-tls-test' }, { allowPrivate: true, retry: { attempts: 1 } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SourceUnreachable)
    expect((err as Error).message).toMatch(/TLS certificate was refused \(ERR_TLS_CERT_ALTNAME_INVALID: /)
  })

  it('refuses a certificate from an issuer it does not trust', async () => {
    configureSourceOutbound({ allowPrivate: true })
    try {
      const err = await openSourceConnection({ instanceUrl: `https://localhost:${port}`, accessToken: 'token-for-tls-test' }, { allowPrivate: true, retry: { attempts: 1 } }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SourceUnreachable)
      expect((err as Error).message).toMatch(/TLS certificate was refused \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN): /)
    } finally {
      configureSourceOutbound({ allowPrivate: true, ca })
    }
  })
})
