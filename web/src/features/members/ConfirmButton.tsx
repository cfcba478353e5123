// A red action behind a confirmation modal (remove a member, revoke an invitation), with the
// failure shown inside the modal.
import { Button, Group, Modal, Text } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import type { ReactNode } from 'react'
import { ErrorState } from '../../components/ErrorState.tsx'

export function ConfirmButton(props: {
  label: string
  ariaLabel: string
  title: string
  confirmLabel: string
  children: ReactNode
  pending: boolean
  error: unknown
  onConfirm: (done: () => void) => void
  onOpen?: () => void
}) {
  const [opened, { open, close }] = useDisclosure(false)
  return (
    <>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => {
          props.onOpen?.()
          open()
        }}
        aria-label={props.ariaLabel}
      >
        {props.label}
      </Button>
      <Modal opened={opened} onClose={close} title={<Text fw={650}>{props.title}</Text>} centered>
        <Text size="sm">{props.children}</Text>
        {props.error != null && (
          <div style={{ marginTop: 12 }}>
            <ErrorState title={`Could not ${props.label.toLowerCase()}`} error={props.error} />
          </div>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close} disabled={props.pending}>
            Cancel
          </Button>
          <Button color="red" loading={props.pending} onClick={() => props.onConfirm(close)}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  )
}
