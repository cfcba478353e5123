/**
 * A Server-Sent Events reader for tests: opens a stream over real HTTP and collects its frames in
 * the background, so a test can act and then look at what arrived and whether the server ended it.
 */
export interface SseFrame {
  id: string | undefined
  event: string | undefined
  data: any
}

export interface SseStream {
  status: number
  headers: Headers
  /** Every frame with data, in order of arrival. */
  frames: SseFrame[]
  /** Settles when the server ended the stream ('ended') or the connection failed ('error'). */
  done: Promise<'ended' | 'error'>
  close(): void
  /** Waits until a frame matches, or fails after `ms`. */
  waitFor(match: (f: SseFrame) => boolean, ms?: number): Promise<SseFrame>
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const controller = new AbortController()
  const res = await fetch(url, { headers, signal: controller.signal })
  const frames: SseFrame[] = []
  const read = async (): Promise<'ended' | 'error'> => {
    if (!res.body) return 'ended'
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return 'ended'
        buffer += value
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':') && l.includes(': ')).map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]))
          if (fields.data) frames.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) })
        }
      }
    } catch {
      return 'error'
    }
  }
  const done = read()
  return {
    status: res.status,
    headers: res.headers,
    frames,
    done,
    close: () => controller.abort(),
    async waitFor(match, ms = 5000) {
      const until = Date.now() + ms
      for (;;) {
        const found = frames.find(match)
        if (found) return found
        if (Date.now() > until) throw new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(frames.map((f) => f.event))}`)
        await new Promise((r) => setTimeout(r, 25))
      }
    },
  }
}

/** Settles with how the stream ended, or 'open' if it is still open after `ms`. */
export function endedWithin(stream: SseStream, ms: number): Promise<'ended' | 'error' | 'open'> {
  return Promise.race([stream.done, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))])
}
