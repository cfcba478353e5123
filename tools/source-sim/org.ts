// Owns building an org: its identity (org/user ids), its schema (standard + custom + setup
// objects, plus noise objects a real describeGlobal lists), its data (generated, demo preset or an
// sObject-tree folder) and its automation metadata. The sandbox is a second, smaller org.
import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { makeId } from './ids.ts'
import { SchemaIndex } from './schema/registry.ts'
import { standardObjects } from './schema/standard.ts'
import { customiseStandard, customObjects } from './schema/custom.ts'
import { flowDefinitionView, toolingObjects } from './schema/automation.ts'
import { noiseObjects } from './schema/noise.ts'
import { f } from './schema/dsl.ts'
import type { ObjectDef } from './schema/types.ts'
import { generateOrg } from './data/generator.ts'
import { DEMO, type GenOptions } from './data/gen-plan.ts'
import { loadTree } from './data/tree-loader.ts'
import { automationData } from './data/automation-data.ts'
import { MemoryObject } from './data/memory.ts'
import type { DataSet } from './data/types.ts'

export interface Org {
  orgId: string
  userId: string
  name: string
  sandbox: boolean
  pod: string
  schema: SchemaIndex
  data: DataSet
  tooling: SchemaIndex
  toolingData: DataSet
  /** Dataset label for logs. */
  source: string
  /** Unique per built org: keys in-process caches, since two simulators in one process share ids. */
  instance: string
}

let instances = 0

export interface DatasetOptions {
  dataset: string
  fixturesDir: string
  gen: GenOptions
}

const recordTypeObject = (): ObjectDef => ({
  name: 'RecordType', label: 'Record Type', labelPlural: 'Record Types', keyPrefix: '012', createable: false,
  fields: [f('Id', 'id'), f('Name', 'string', { nameField: true }), f('DeveloperName', 'string'), f('SobjectType', 'picklist', { length: 40 }), f('IsActive', 'boolean'), f('NamespacePrefix', 'string', { length: 15 })],
})

/** Where `--dataset x` points: a folder path, or a fixture project name under sobject-tree/. */
export function resolveDatasetDir(dataset: string, fixturesDir: string): string | null {
  const direct = isAbsolute(dataset) ? dataset : resolve(process.cwd(), dataset)
  if (existsSync(direct)) return direct
  const named = resolve(fixturesDir, 'sobject-tree', dataset)
  return existsSync(named) ? named : null
}

export function buildOrg(opts: DatasetOptions, sandbox: boolean): Org {
  const pod = sandbox ? '7Q' : '5g'
  const setup = [flowDefinitionView(), recordTypeObject(), ...noiseObjects()]
  let defs: ObjectDef[]
  let data: DataSet
  let source: string
  const generated = (g: GenOptions) => {
    const std = standardObjects()
    customiseStandard(std, pod)
    return { defs: [...std, ...customObjects()], data: generateOrg(g, pod) }
  }
  if (opts.dataset === 'demo' || opts.dataset === 'generated' || sandbox) {
    // The sandbox is always generated: a smaller org with its own seed, whatever production holds.
    // Sandbox of a generated org: a tenth of its size; of the demo or a tree dataset: from the demo preset.
    const base = opts.dataset === 'generated' ? opts.gen : DEMO
    const g = sandbox ? { seed: base.seed + 1, accounts: Math.max(40, Math.floor(base.accounts / 10)) } : base
    ;({ defs, data } = generated(g))
    source = sandbox ? `sandbox(seed=${g.seed}, accounts=${g.accounts})` : `${opts.dataset}(seed=${g.seed}, accounts=${g.accounts})`
  } else {
    const dir = resolveDatasetDir(opts.dataset, opts.fixturesDir)
    if (!dir) throw new Error(`dataset folder not found: ${opts.dataset} (also tried ${resolve(opts.fixturesDir, 'sobject-tree', opts.dataset)})`)
    const tree = loadTree(dir, pod, standardObjects())
    defs = tree.defs
    data = tree.data
    source = dir
  }
  const rtRows = defs.flatMap((d) => (d.recordTypes ?? []).map((rt) => ({ Id: rt.id, Name: rt.name, DeveloperName: rt.developerName, SobjectType: d.name, IsActive: true, NamespacePrefix: null })))
  data.set('RecordType', new MemoryObject(rtRows))
  const dataObjects = defs.filter((d) => d.createable !== false).map((d) => d.name).filter((n) => n !== 'User')
  const auto = automationData(opts.gen.seed + (sandbox ? 1 : 0), pod, dataObjects)
  for (const [k, v] of auto.setup) data.set(k, v)
  const tooling = toolingObjects()
  return {
    orgId: makeId('00D', pod, 0),
    userId: makeId('005', pod, 0),
    name: sandbox ? 'Cairn Demo Sandbox' : 'Cairn Demo Org',
    sandbox,
    pod,
    schema: new SchemaIndex([...defs, ...setup, tooling[0]]),
    data,
    tooling: new SchemaIndex(tooling),
    toolingData: auto.tooling,
    source,
    instance: `${pod}#${++instances}`,
  }
}
