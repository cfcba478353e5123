/**
 * Builds the web app (web/ -> web/dist) when the build is missing or older than its sources, so
 * `npm start` and `npm test` work on a fresh clone without a separate build step.
 */
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'web/dist/index.html')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p))
    else newest = Math.max(newest, fs.statSync(p).mtimeMs)
  }
  return newest
}

const sources = [path.join(root, 'web/src'), path.join(root, 'web/index.html'), path.join(root, 'web/vite.config.ts'), path.join(root, 'src/records/kinds')]
const newestSource = Math.max(...sources.filter((p) => fs.existsSync(p)).map((p) => (fs.statSync(p).isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs)))
const built = fs.existsSync(dist) ? fs.statSync(dist).mtimeMs : 0

if (built < newestSource) {
  console.log('Building the web app (web/dist)...')
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  })
}
