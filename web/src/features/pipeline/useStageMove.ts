// Moving a card to another stage: a PATCH of `stage` (the service emits opportunity.stage_changed),
// shown at once by moving the card and the totals in the cache, and undone with the error shown
// if the service refuses.
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { useState } from 'react'
import { opportunityKind } from '../../../../src/web-contracts.ts'
import type { Page } from '../../api/client.ts'
import { storeRecord } from '../../api/queries.ts'
import { updateRecord } from '../../api/records.ts'
import { humanize, recordTitle, type CrmRecord } from '../../kinds.ts'
import { moveInSummary } from './stageTotals.ts'
import { columnKey, summaryKey, type PipelineSummary } from './usePipeline.ts'

export interface StageMove {
  card: CrmRecord
  from: string
  to: string
}

type Column = InfiniteData<Page<CrmRecord>, string | undefined>

function without(column: Column | undefined, id: string): Column | undefined {
  if (!column) return column
  return { ...column, pages: column.pages.map((p) => ({ ...p, data: p.data.filter((r) => r.id !== id) })) }
}

function withOnTop(column: Column | undefined, card: CrmRecord): Column | undefined {
  if (!column || column.pages.length === 0) return column
  const [first, ...rest] = column.pages
  return { ...column, pages: [{ ...first!, data: [card, ...first!.data.filter((r) => r.id !== card.id)] }, ...rest] }
}

export function useStageMove(owner?: string) {
  const client = useQueryClient()
  const [failure, setFailure] = useState<string | null>(null)
  const move = useMutation({
    mutationFn: ({ card, to }: StageMove) => updateRecord(opportunityKind, card.id, { stage: to }),
    onMutate: async ({ card, from, to }) => {
      setFailure(null)
      const keys = [columnKey(from, owner), columnKey(to, owner), summaryKey(owner)] as const
      await Promise.all(keys.map((queryKey) => client.cancelQueries({ queryKey, exact: true })))
      const saved = keys.map((k) => [k, client.getQueryData(k)] as const)
      client.setQueryData<Column>(columnKey(from, owner), (c) => without(c, card.id))
      client.setQueryData<Column>(columnKey(to, owner), (c) => withOnTop(c, { ...card, stage: to }))
      client.setQueryData<PipelineSummary>(summaryKey(owner), (s) => (s ? moveInSummary(s, from, to, card.amount, card.currency) : s))
      return { saved }
    },
    onError: (error, { card, from, to }, context) => {
      for (const [key, data] of context?.saved ?? []) client.setQueryData(key, data)
      setFailure(`Could not move “${recordTitle(opportunityKind, card)}” to ${humanize(to)}: ${error.message.replace(/\.?$/, '.')} It is back in ${humanize(from)}.`)
    },
    onSuccess: (record) => storeRecord(client, opportunityKind, record),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['records', opportunityKind.path] })
    },
  })
  return { move, failure, dismiss: () => setFailure(null) }
}
