/**
 * A bare HTTP/1.1 client over a socket, for requests well-behaved clients refuse to send (unknown
 * methods, invalid paths, malformed request lines, oversized headers): it writes the bytes as given
 * and reads the whole answer until the server closes the connection.
 */
import net from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

export function rawRequest(port: number, text: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')))
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)))
    socket.on('end', finish)
    socket.write(text)
    let done = false
    function finish(): void {
      if (done) return
      done = true
      socket.destroy()
      const raw = Buffer.concat(chunks).toString('latin1')
      const split = raw.indexOf('\r\n\r\n')
      const head = split < 0 ? raw : raw.slice(0, split)
      const [statusLine, ...lines] = head.split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const i = line.indexOf(':')
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0)
      let body = split < 0 ? '' : raw.slice(split + 4)
      if (headers['transfer-encoding'] === 'chunked') body = dechunk(body)
      resolve({ status, headers, body: Buffer.from(body, 'latin1').toString('utf8') })
    }
  })
}

function dechunk(body: string): string {
  let out = ''
  let rest = body
  for (;;) {
    const eol = rest.indexOf('\r\n')
    if (eol < 0) return out
    const size = parseInt(rest.slice(0, eol), 16)
    if (!size) return out
    out += rest.slice(eol + 2, eol + 2 + size)
    rest = rest.slice(eol + 2 + size + 2)
  }
}

/** A request's text with `Connection: close`, a Host and, for a body, its length. */
export function requestText(method: string, path: string, headers: Record<string, string> = {}, body = ''): string {
  const all: Record<string, string> = { host: 'localhost', connection: 'close', ...headers }
  if (body !== '' && !('content-length' in all)) all['content-length'] = String(Buffer.byteLength(body))
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`
}
