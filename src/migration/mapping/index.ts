/**
 * Field mapping from the source platform's objects to the service's record kinds: the catalogue of
 * supported objects and their standard fields, the proposed mapping of a whole describe, the user's
 * overrides and their validation, and the per-record transform the importer runs.
 */
export { CATALOGUE, catalogueFor, type CatalogueEntry, type ObjectCatalogue } from './catalogue.ts'
export { mapObjectFields, type MapContext } from './auto-map.ts'
export { effectiveMappings, validateOverrides } from './effective-mapping.ts'
export { compileMapping, transformRecord, DEFAULT_KEY_PREFIXES, type CompiledMapping, type CompileOptions, type TransformResult } from './transform-record.ts'
export { normalizeDomain, normalizeEmail } from './normalize.ts'
export { isCustomName, namespaceOf } from './field-types.ts'
export { isSystemField } from './system-fields.ts'
