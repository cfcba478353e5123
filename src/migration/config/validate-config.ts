/**
 * Checks a Configure step's configuration against the migration's analysis: every selected object
 * exists in the source and has a target, comments come with their cases, and every field override
 * names a real source field and a compatible target. All problems are reported at once, each with
 * the path of the setting to fix.
 */
import type { FieldError } from '../../shared/errors.ts'
import { ValidationFailed } from '../../shared/errors.ts'
import { STEP_BY_OBJECT } from '../migration.defaults.ts'
import type { AnalysisReport, MigrationConfig } from '../migration.types.ts'
import { validateOverrides } from '../mapping/effective-mapping.ts'

export function configErrors(config: MigrationConfig, report: AnalysisReport): FieldError[] {
  const errors: FieldError[] = []
  const analyzed = new Map(report.objects.map((o) => [o.name, o]))
  const selected = new Set(config.objects)
  config.objects.forEach((name, i) => {
    const o = analyzed.get(name)
    if (!o) errors.push({ field: `objects[${i}]`, message: `${name} is not an object of the analyzed source` })
    else if (!STEP_BY_OBJECT.has(name) || o.target === null) errors.push({ field: `objects[${i}]`, message: `${name} has no target in this service and cannot be imported (see the report's risks)` })
  })
  if (selected.has('CaseComment') && !selected.has('Case')) {
    errors.push({ field: 'objects', message: 'CaseComment is imported with its cases: select Case too' })
  }
  if (config.objects.length === 0) errors.push({ field: 'objects', message: 'select at least one object' })
  for (const [object, overrides] of Object.entries(config.field_overrides)) {
    const o = analyzed.get(object)
    if (!o) {
      errors.push({ field: `field_overrides.${object}`, message: `${object} is not an object of the analyzed source` })
      continue
    }
    if (o.target === null) {
      errors.push({ field: `field_overrides.${object}`, message: `${object} has no target in this service` })
      continue
    }
    errors.push(...validateOverrides(object, o.target, o.fields, overrides))
  }
  return errors
}

export function validateConfig(config: MigrationConfig, report: AnalysisReport): void {
  const errors = configErrors(config, report)
  if (errors.length) throw new ValidationFailed(`The configuration has ${errors.length} problem${errors.length > 1 ? 's' : ''}: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`, errors)
}
