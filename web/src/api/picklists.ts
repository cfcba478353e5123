// Standard picklists over REST (/api/v1/picklists): the organization's options for built-in fields
// such as industry and lead source, read by forms and list filters (docs/custom-fields.md).
import { useQuery } from '@tanstack/react-query'
import { cairn, call, type Schemas } from './client.ts'

export type StandardPicklist = Schemas['StandardPicklist']

/** Every standard picklist of the organization (one request serves every page). */
export function usePicklists() {
  return useQuery({
    queryKey: ['picklists'],
    queryFn: async () => (await call(() => cairn.GET('/api/v1/picklists'))).data,
    staleTime: 60_000,
  })
}

/** The options of one field, with a value held outside them kept (shown, so it is not lost by a form). */
export function usePicklistOptions(kind: string, field: string, held?: string | null): string[] {
  const all = usePicklists()
  const options = all.data?.find((p) => p.kind === kind && p.field === field)?.options ?? []
  return held && !options.includes(held) ? [...options, held] : options
}
