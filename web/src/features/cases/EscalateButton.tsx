// Escalate a case (POST /cases/{id}/escalate); disabled once the case is escalated.
import { Button, Tooltip } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { cairn, call } from '../../api/client.ts'
import { storeRecord } from '../../api/queries.ts'
import { caseKind } from '../../../../src/web-contracts.ts'
import type { CrmRecord } from '../../kinds.ts'

export function EscalateButton({ record }: { record: CrmRecord }) {
  const client = useQueryClient()
  const escalate = useMutation({
    mutationFn: () => call(() => cairn.POST('/api/v1/cases/{id}/escalate', { params: { path: { id: record.id } }, body: {} })) as Promise<CrmRecord>,
    onSuccess: (updated) => storeRecord(client, caseKind, updated),
    onError: () => void client.invalidateQueries({ queryKey: ['records', 'cases', 'one', record.id] }),
  })
  const done = record.is_escalated === true
  const button = (
    <Button color="red" variant={done ? 'light' : 'filled'} leftSection={<IconAlertTriangle size={16} />} disabled={done} loading={escalate.isPending} onClick={() => escalate.mutate()}>
      {done ? 'Escalated' : 'Escalate'}
    </Button>
  )
  if (escalate.isError) {
    return (
      <Tooltip label={escalate.error.message} opened color="red" withArrow>
        {button}
      </Tooltip>
    )
  }
  return button
}
