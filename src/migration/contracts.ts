/**
 * The migration's contracts: what the web app's wizard and the CSV importer share with it, free of
 * the importer's machinery: the source platform's field catalogue, the import order and default
 * configuration, the types of the API, and how source fields map.
 */
export { CATALOGUE } from './mapping/catalogue.ts'
export { IMPORT_ORDER, STEP_BY_OBJECT, defaultConfig } from './migration.defaults.ts'
export type * from './migration.types.ts'
export { sourceFieldOf } from './mapping/auto-map.ts'
export { compatibility, isImportableTarget } from './mapping/field-types.ts'
