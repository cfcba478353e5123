// The Reports page's data: one query per chart (GET /api/v1/reports/...), each filtered by the
// page's period and owner. The server computes the aggregates; this only fetches them.
import { useQuery } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type PipelineReport = Schemas['PipelineReport']
export type WonLostReport = Schemas['WonLostReport']
export type CasesReport = Schemas['CasesReport']
export type ActivitiesReport = Schemas['ActivitiesReport']

export interface ReportFilters {
  from: string
  to: string
  ownerId: string | null
}

const query = (f: ReportFilters) => ({ from: f.from, to: f.to, ...(f.ownerId ? { owner_id: f.ownerId } : {}) })

export const usePipelineReport = (f: ReportFilters) =>
  useQuery({ queryKey: ['reports', 'pipeline', f], queryFn: () => call(() => cairn.GET('/api/v1/reports/pipeline', { params: { query: query(f) } })) })
export const useWonLostReport = (f: ReportFilters) =>
  useQuery({ queryKey: ['reports', 'won-lost', f], queryFn: () => call(() => cairn.GET('/api/v1/reports/won-lost', { params: { query: query(f) } })) })
export const useCasesReport = (f: ReportFilters) =>
  useQuery({ queryKey: ['reports', 'cases', f], queryFn: () => call(() => cairn.GET('/api/v1/reports/cases', { params: { query: query(f) } })) })
export const useActivitiesReport = (f: ReportFilters) =>
  useQuery({ queryKey: ['reports', 'activities', f], queryFn: () => call(() => cairn.GET('/api/v1/reports/activities', { params: { query: query(f) } })) })
