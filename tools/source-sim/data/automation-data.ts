// Owns the automation metadata records (ApexTrigger, Flow, WorkflowRule, FlowDefinitionView),
// derived deterministically from (seed, object names) so the analyzer has per-object counts to
// find: some objects heavy with automation, some with none, some inactive or managed-package items.
import { makeId } from '../ids.ts'
import { h, sfDateTime, START } from './gen-util.ts'
import { MemoryObject, type Row } from './memory.ts'
import type { DataSet, ObjectData } from './types.ts'

export function automationData(seed: number, pod: string, objects: string[]): { tooling: DataSet; setup: DataSet } {
  const triggers: Row[] = [], flows: Row[] = [], rules: Row[] = [], views: Row[] = []
  const date = (n: number) => sfDateTime(START + n * 86_400_000 * 3)
  objects.forEach((obj, o) => {
    const r = h(seed, 77, o, 1)
    const nTrig = r % 4, nFlow = (r >>> 4) % 4, nRule = (r >>> 8) % 3
    const managed = obj.startsWith('acme__')
    for (let k = 0; k < nTrig; k++) {
      const i = triggers.length
      const events = h(seed, 78, i, 2)
      triggers.push({
        Id: makeId('01q', pod, i), Name: `${obj.replace(/__c$/, '').replace(/^acme__/, '')}Trigger${k || ''}`, TableEnumOrId: obj,
        Status: k === 2 ? 'Inactive' : 'Active', NamespacePrefix: managed ? 'acme' : null, ApiVersion: 58 + k, LengthWithoutComments: 200 + (events % 5000),
        UsageBeforeInsert: (events & 1) > 0, UsageAfterInsert: (events & 2) > 0 || k === 0, UsageBeforeUpdate: (events & 4) > 0,
        UsageAfterUpdate: (events & 8) > 0, UsageBeforeDelete: (events & 16) > 0, UsageAfterDelete: (events & 32) > 0, UsageAfterUndelete: false,
        IsValid: true, CreatedDate: date(i), SystemModstamp: date(i + 10),
      })
    }
    for (let k = 0; k < nFlow; k++) {
      const i = flows.length
      const defId = makeId('300', pod, i)
      const active = k !== 1
      const label = `${obj.replace(/__c$/, '')} ${['Assignment', 'Notify Owner', 'Set Defaults'][k % 3]}`
      flows.push({ Id: makeId('301', pod, i), MasterLabel: label, DefinitionId: defId, Status: active ? 'Active' : 'Draft', ProcessType: k === 2 ? 'Workflow' : 'AutoLaunchedFlow', VersionNumber: 1 + k, ApiVersion: 59, Description: null, CreatedDate: date(i), LastModifiedDate: date(i + 5) })
      views.push({
        Id: defId, DurableId: defId, ApiName: label.replace(/\W+/g, '_'), Label: label, ProcessType: k === 2 ? 'Workflow' : 'AutoLaunchedFlow',
        TriggerType: k === 2 ? null : ['RecordAfterSave', 'RecordBeforeSave', 'RecordBeforeDelete'][k % 3], RecordTriggerType: 'CreateAndUpdate',
        TriggerObjectOrEventLabel: obj, TriggerObjectOrEventId: obj, IsActive: active, ActiveVersionId: active ? makeId('301', pod, i) : null,
        LatestVersionId: makeId('301', pod, i), NamespacePrefix: managed ? 'acme' : null, ManageableState: managed ? 'installed' : 'unmanaged', LastModifiedDate: date(i + 5),
      })
    }
    for (let k = 0; k < nRule; k++) {
      const i = rules.length
      rules.push({ Id: makeId('01Q', pod, i), Name: `${obj.replace(/__c$/, '')} rule ${k + 1}`, TableEnumOrId: obj, NamespacePrefix: managed ? 'acme' : null, CreatedDate: date(i), LastModifiedDate: date(i + 1) })
    }
  })
  const tooling: DataSet = new Map<string, ObjectData>([['ApexTrigger', new MemoryObject(triggers)], ['Flow', new MemoryObject(flows)], ['WorkflowRule', new MemoryObject(rules)]])
  const setup: DataSet = new Map<string, ObjectData>([['ApexTrigger', tooling.get('ApexTrigger')!], ['FlowDefinitionView', new MemoryObject(views)]])
  return { tooling, setup }
}
