#!/usr/bin/env node
// The `cairn` bin: runs the CLI with the Node that the project brings (node_modules/.bin/node, v24),
// since the system Node may be too old for TypeScript type stripping.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const node = path.join(root, 'node_modules', '.bin', 'node')
const result = spawnSync(node, [path.join(root, 'src/cli/main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(result.status ?? 1)
