// Owns name resolution over a set of ObjectDefs: objects and fields by case-insensitive name
// (the platform is case-insensitive on input), parent relationships (Account.Name), child
// relationships (SELECT ... FROM Contacts) and key prefix -> object (polymorphic lookups).
import type { FieldDef, ObjectDef } from './types.ts'

export interface ChildRel { relationshipName: string; childObject: string; field: string; cascadeDelete: boolean }

export interface ObjectInfo {
  def: ObjectDef
  fields: Map<string, FieldDef>
  /** relationshipName (lower case) -> the lookup field. */
  parents: Map<string, FieldDef>
  children: Map<string, ChildRel>
  childList: ChildRel[]
}

export class SchemaIndex {
  readonly objects: ObjectInfo[] = []
  private readonly byLower = new Map<string, ObjectInfo>()
  private readonly byPrefix = new Map<string, ObjectInfo>()

  constructor(defs: ObjectDef[]) {
    for (const def of defs) {
      const info: ObjectInfo = { def, fields: new Map(), parents: new Map(), children: new Map(), childList: [] }
      for (const fd of def.fields) {
        info.fields.set(fd.name.toLowerCase(), fd)
        if (fd.relationshipName) info.parents.set(fd.relationshipName.toLowerCase(), fd)
      }
      this.objects.push(info)
      this.byLower.set(def.name.toLowerCase(), info)
      if (def.keyPrefix) this.byPrefix.set(def.keyPrefix, info)
    }
    for (const info of this.objects) {
      for (const fd of info.def.fields) {
        if (!fd.childRelationship) continue
        for (const target of fd.referenceTo ?? []) {
          const parent = this.byLower.get(target.toLowerCase())
          if (!parent) continue
          const rel: ChildRel = { relationshipName: fd.childRelationship, childObject: info.def.name, field: fd.name, cascadeDelete: fd.cascadeDelete ?? false }
          parent.children.set(rel.relationshipName.toLowerCase(), rel)
          parent.childList.push(rel)
        }
      }
    }
  }

  object(name: string): ObjectInfo | undefined {
    return this.byLower.get(name.toLowerCase())
  }

  objectForId(id: string): ObjectInfo | undefined {
    return this.byPrefix.get(id.slice(0, 3))
  }
}
