// "Undo" for one operation (a request, a batch, an import run, an assistant's tool call): a
// confirmation saying what will be reverted, then the background revert's progress, then what it
// reverted and the conflicts it left alone. Forcing (also setting back fields changed since) is an
// explicit second step of the confirmation: an operation has one revert, so it is chosen before.
import { useEffect, useState } from 'react'
import { Button, Group, List, Modal, Stack, Text, type ButtonProps } from '@mantine/core'
import { IconArrowBackUp } from '@tabler/icons-react'
import { useQueryClient } from '@tanstack/react-query'
import { isReverting, refreshAfterRevert, useOperation, useRevert, useRevertStatus, type Operation } from '../../api/operations.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { formatDateTime } from '../../kinds.ts'
import { actorText, undoEffects } from './actorText.ts'
import { OperationStateBadge } from './OperationStateBadge.tsx'
import { RevertOutcome } from './RevertOutcome.tsx'

type Step = 'confirm' | 'follow' | 'force'

function WhatWillBeReverted({ op }: { op: Operation }) {
  const effects = undoEffects(op.counts)
  return (
    <Stack gap="xs">
      <Text size="sm">
        This reverts every change of the operation by <b>{actorText(op.actor)}</b> on {formatDateTime(op.started_at)}. It will:
      </Text>
      <List size="sm" spacing={2}>
        {effects.map((e) => (
          <List.Item key={e}>{e}</List.Item>
        ))}
      </List>
      <Text size="sm" c="dimmed">
        Fields someone changed after it are left as they are and listed, so nothing newer is lost. The undo is an operation of its own: you can undo it too.
      </Text>
    </Stack>
  )
}

/** `quietWhenUndone`: once undone (and closed), show nothing, where the page's header already says so. */
export function UndoOperationButton({ operationId, label = 'Undo', quietWhenUndone = false, ...button }: { operationId: string; label?: string; quietWhenUndone?: boolean } & ButtonProps) {
  const client = useQueryClient()
  const [opened, setOpened] = useState(false)
  const [step, setStep] = useState<Step>('confirm')
  const op = useOperation(operationId)
  const revert = useRevert(operationId)
  const status = useRevertStatus(operationId, step !== 'confirm' && revert.isSuccess)
  const current = status.data ?? revert.data
  const running = isReverting(current)

  // When the background revert ends, what it changed is shown fresh everywhere.
  const ended = current !== undefined && !running
  useEffect(() => {
    if (ended) refreshAfterRevert(client)
  }, [ended, client])

  const start = (force: boolean) => {
    setStep('follow')
    revert.mutate(force)
  }
  const close = () => {
    setOpened(false)
    setStep('confirm')
    revert.reset()
  }

  // Undone already (and not being followed here): say so instead of offering it again.
  if (op.data?.reverted_by && !opened) return quietWhenUndone ? null : <OperationStateBadge op={op.data} />
  return (
    <>
      <Button variant="default" leftSection={<IconArrowBackUp size={16} />} onClick={() => setOpened(true)} disabled={!op.data} {...button}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={<Text fw={650}>{step === 'force' ? 'Overwrite the later changes?' : label.endsWith('?') ? label : `${label}?`}</Text>} centered size="lg">
        <Stack gap="md">
          {step === 'confirm' && op.data && <WhatWillBeReverted op={op.data} />}
          {step === 'force' && (
            <Text size="sm">
              Fields someone changed after this operation are set back too, and those later changes are lost. You can undo the forced undo
              afterwards.
            </Text>
          )}
          {step === 'follow' && current && <RevertOutcome status={current} />}
          {step === 'follow' && revert.isPending && <Text size="sm">Starting the undo…</Text>}
          {revert.error && <ErrorState title="The undo was not started" error={revert.error} />}
          <Group justify="flex-end" gap="sm">
            {step === 'confirm' && (
              <>
                <Button variant="subtle" color="red" onClick={() => setStep('force')} mr="auto">
                  Overwrite later changes too…
                </Button>
                <Button variant="default" onClick={close}>
                  Cancel
                </Button>
                <Button color="red" onClick={() => start(false)} leftSection={<IconArrowBackUp size={16} />}>
                  Undo
                </Button>
              </>
            )}
            {step === 'follow' && (
              <Button onClick={close} variant={running || revert.isPending ? 'default' : 'filled'}>
                {running ? 'Close (the undo goes on)' : 'Done'}
              </Button>
            )}
            {step === 'force' && (
              <>
                <Button variant="default" onClick={() => setStep('confirm')}>
                  Back
                </Button>
                <Button color="red" onClick={() => start(true)}>
                  Force the undo
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  )
}
