// Owns the setup/Tooling objects the analyzer counts automation with: ApexTrigger, Flow and
// WorkflowRule (Tooling API) and FlowDefinitionView (standard /query). Their field lists follow the
// queries in the spec (§1.7).
import type { ObjectDef } from './types.ts'
import { f, pick } from './dsl.ts'

const ro = { createable: false } as const

export function toolingObjects(): ObjectDef[] {
  return [
    {
      name: 'ApexTrigger', label: 'Apex Trigger', labelPlural: 'Apex Triggers', keyPrefix: '01q', createable: false,
      fields: [
        f('Id', 'id', ro), f('Name', 'string', { length: 255, ...ro, nameField: true }), f('TableEnumOrId', 'picklist', { length: 40, ...ro }),
        pick('Status', ['Inactive', 'Active', 'Deleted'], ro), f('NamespacePrefix', 'string', { length: 15, ...ro }),
        f('ApiVersion', 'double', { precision: 18, scale: 1, ...ro }), f('LengthWithoutComments', 'int', ro),
        f('UsageBeforeInsert', 'boolean', ro), f('UsageAfterInsert', 'boolean', ro), f('UsageBeforeUpdate', 'boolean', ro),
        f('UsageAfterUpdate', 'boolean', ro), f('UsageBeforeDelete', 'boolean', ro), f('UsageAfterDelete', 'boolean', ro),
        f('UsageAfterUndelete', 'boolean', ro), f('IsValid', 'boolean', ro), f('CreatedDate', 'datetime', ro), f('SystemModstamp', 'datetime', ro),
      ],
    },
    {
      name: 'Flow', label: 'Flow', labelPlural: 'Flows', keyPrefix: '301', createable: false,
      fields: [
        f('Id', 'id', ro), f('MasterLabel', 'string', { length: 255, ...ro }), f('DefinitionId', 'reference', { referenceTo: ['FlowDefinition'], relationshipName: 'Definition', ...ro }),
        pick('Status', ['Active', 'Draft', 'Obsolete', 'InvalidDraft'], ro), pick('ProcessType', ['Flow', 'AutoLaunchedFlow', 'Workflow', 'CustomEvent'], ro),
        f('VersionNumber', 'int', ro), f('ApiVersion', 'double', ro), f('Description', 'textarea', { length: 4000, ...ro }),
        f('CreatedDate', 'datetime', ro), f('LastModifiedDate', 'datetime', ro),
      ],
    },
    {
      name: 'WorkflowRule', label: 'Workflow Rule', labelPlural: 'Workflow Rules', keyPrefix: '01Q', createable: false,
      fields: [
        f('Id', 'id', ro), f('Name', 'string', { length: 80, ...ro, nameField: true }), f('TableEnumOrId', 'picklist', { length: 40, ...ro }),
        f('NamespacePrefix', 'string', { length: 15, ...ro }), f('CreatedDate', 'datetime', ro), f('LastModifiedDate', 'datetime', ro),
      ],
    },
  ]
}

export function flowDefinitionView(): ObjectDef {
  return {
    name: 'FlowDefinitionView', label: 'Flow Definition View', labelPlural: 'Flow Definition Views', keyPrefix: '300', createable: false,
    fields: [
      f('Id', 'id', ro), f('DurableId', 'string', { length: 18, ...ro }), f('ApiName', 'string', { length: 80, ...ro }),
      f('Label', 'string', { length: 255, ...ro }), pick('ProcessType', ['Flow', 'AutoLaunchedFlow', 'Workflow', 'CustomEvent'], ro),
      pick('TriggerType', ['RecordAfterSave', 'RecordBeforeSave', 'RecordBeforeDelete', 'Scheduled', 'PlatformEvent'], ro),
      pick('RecordTriggerType', ['Create', 'Update', 'CreateAndUpdate', 'Delete'], ro), f('TriggerObjectOrEventLabel', 'string', { length: 255, ...ro }),
      f('TriggerObjectOrEventId', 'string', { length: 255, ...ro }),
      f('IsActive', 'boolean', ro), f('ActiveVersionId', 'string', { length: 18, ...ro }), f('LatestVersionId', 'string', { length: 18, ...ro }),
      f('NamespacePrefix', 'string', { length: 15, ...ro }), pick('ManageableState', ['unmanaged', 'installed', 'released'], ro),
      f('LastModifiedDate', 'datetime', ro),
    ],
  }
}
