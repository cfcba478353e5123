/**
 * Views: saved views of the record lists and of the pipeline board (named columns, filters and
 * sort, private to a person or shared with the organization). This folder owns `saved_views`
 * (migration 0036) and its API; the filters are the lists' own query parameters, checked with
 * records' list schemas (docs/views.md).
 */
export { viewRoutes } from './views.routes.ts'
