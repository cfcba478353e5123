/**
 * An exclusive lockfile on the embedded database's folder. PGlite takes no lock, and two processes
 * writing one folder lose writes without an error, so the second process must refuse to start.
 */
import fs from 'node:fs'
import path from 'node:path'

export interface DataDirLock {
  release(): void
}

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already in use by another Cairn process (pid ${pid}). ` +
        'Stop that process first, or set DATABASE_URL to run several processes on PostgreSQL.',
    )
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function acquireDataDirLock(dir: string): DataDirLock {
  const file = path.join(dir, 'cairn.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.closeSync(fd)
      let released = false
      return {
        release() {
          if (released) return
          released = true
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file)
          } catch {
            /* already gone */
          }
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number(fs.readFileSync(file, 'utf8').trim())
      // A lock left by a crashed process (SIGKILL) names a pid that no longer runs: take it over.
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid)
      fs.unlinkSync(file)
    }
  }
  throw new Error(`Could not take the lock on ${dir}`)
}
