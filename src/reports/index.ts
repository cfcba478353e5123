/**
 * Reports (issue 33, docs/reports.md). This folder owns the `/api/v1/reports/*` endpoints behind
 * the Reports page: the period and owner filter (report-period.ts), the shaping of aggregates into
 * chart series (report-shapes.ts), and members' names (member-names.ts). The aggregates themselves
 * are records' (recordReads.reports, through src/records/index.ts), since only records reads its tables.
 */
export { reportRoutes } from './report.routes.ts'
