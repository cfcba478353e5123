// Reads a SourceMetadata from a running simulator through the real jsforce client, by hand: the
// project's own source reader (src/migration/source/) is tested on its own; these tests need the
// analyzer's input exactly as the platform's API shapes it.
import type jsforce from 'jsforce'
import { objectsToDescribe } from '../../../src/migration/analysis/inventory.ts'
import type { SourceDescribe, SourceGlobalEntry, SourceMetadata } from '../../../src/migration/migration.types.ts'

type Rows<T> = { records: T[] }

export async function readSimMetadata(conn: jsforce.Connection): Promise<SourceMetadata> {
  const global = (await conn.describeGlobal()).sobjects as unknown as SourceGlobalEntry[]
  const names = objectsToDescribe(global)
  const describes: Record<string, SourceDescribe> = {}
  const counts: Record<string, number> = {}
  for (const name of names) {
    describes[name] = (await conn.describe(name)) as unknown as SourceDescribe
    counts[name] = (await conn.query(`SELECT COUNT() FROM ${name}`)).totalSize
  }
  const triggers = (await conn.tooling.query('SELECT Id, Name, TableEnumOrId, Status, UsageBeforeInsert, UsageAfterInsert, UsageBeforeUpdate, UsageAfterUpdate, UsageBeforeDelete, UsageAfterDelete, UsageAfterUndelete, NamespacePrefix FROM ApexTrigger')) as unknown as Rows<SourceMetadata['automation']['triggers'][number]>
  const flows = (await conn.query('SELECT ApiName, Label, ProcessType, TriggerType, RecordTriggerType, TriggerObjectOrEventLabel, IsActive, NamespacePrefix FROM FlowDefinitionView')) as unknown as Rows<SourceMetadata['automation']['flows'][number]>
  const rules = (await conn.tooling.query('SELECT Id, Name, TableEnumOrId, NamespacePrefix FROM WorkflowRule')) as unknown as Rows<SourceMetadata['automation']['workflow_rules'][number]>
  const users = (await conn.query('SELECT Id, Name, Email, IsActive FROM User')) as unknown as Rows<SourceMetadata['users'][number]>
  const recordTypes = (await conn.query('SELECT Id, DeveloperName, SobjectType FROM RecordType')) as unknown as Rows<SourceMetadata['record_types'][number]>
  const limits = await conn.limits()
  const emails = async (object: string) =>
    ((await conn.query(`SELECT Email FROM ${object} WHERE Email != null LIMIT 2000`)) as unknown as Rows<{ Email: string }>).records.map((r) => r.Email)
  const strip = <T extends object>(rows: T[]) => rows.map(({ attributes: _a, ...rest }: T & { attributes?: unknown }) => rest as T)
  return {
    instance_url: conn.instanceUrl,
    api_version: conn.version,
    organization_id: conn.userInfo?.organizationId ?? null,
    environment: 'production',
    global,
    describes,
    counts,
    automation: { triggers: strip(triggers.records), flows: strip(flows.records), workflow_rules: strip(rules.records), unavailable: [] },
    users: strip(users.records),
    record_types: strip(recordTypes.records),
    limits: { max: limits.DailyApiRequests.Max, remaining: limits.DailyApiRequests.Remaining },
    email_samples: { Contact: await emails('Contact'), Lead: await emails('Lead') },
  }
}
