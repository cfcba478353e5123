// The "Invite people" modal: an email and a role; on success it turns into the link and whether
// it was emailed. Server field errors land under their input.
import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client.ts'
import { useInvite, type CreatedInvitation, type Role } from '../../api/members.ts'
import { InvitationLinkReveal } from './InvitationLinkReveal.tsx'
import { ROLE_OPTIONS } from './memberText.ts'

function InviteForm({ onCreated, onCancel }: { onCreated: (c: CreatedInvitation) => void; onCancel: () => void }) {
  const invite = useInvite()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('member')
  const [localError, setLocalError] = useState<string | null>(null)
  const error = invite.error
  const emailError =
    localError ?? (error instanceof ApiError && (error.fieldErrors.some((e) => e.field.endsWith('email')) || error.code === 'already_member') ? error.message : undefined)
  const otherError = error != null && !emailError ? (error instanceof Error ? error.message : 'Something went wrong.') : null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setLocalError('Enter an email address, like sam@example.com')
      return
    }
    setLocalError(null)
    invite.mutate({ email: email.trim(), role }, { onSuccess: onCreated })
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Invite people">
      <Stack gap="md">
        {otherError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Could not invite" role="alert">
            {otherError}
          </Alert>
        )}
        <TextInput
          label="Email"
          aria-label="Email"
          withAsterisk
          type="email"
          placeholder="sam@example.com"
          maxLength={320}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={emailError}
          data-autofocus
        />
        <Radio.Group label="Role" value={role} onChange={(v) => setRole(v as Role)}>
          <Stack gap="xs" mt={6}>
            {ROLE_OPTIONS.map((o) => (
              <Radio.Card key={o.value} value={o.value} radius="md" p="sm" aria-label={o.label}>
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={2} />
                  <div>
                    <Text size="sm" fw={600}>
                      {o.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {o.description}
                    </Text>
                  </div>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onCancel} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  )
}

/** `created` set from outside (a new link for a listed invitation) opens the modal on the link. */
export function InviteModal({ opened, onClose, created: given }: { opened: boolean; onClose: () => void; created?: CreatedInvitation | null }) {
  const [created, setCreated] = useState<CreatedInvitation | null>(null)
  const [formKey, setFormKey] = useState(0)
  const shown = given ?? created
  const close = () => {
    setCreated(null)
    setFormKey((k) => k + 1)
    onClose()
  }
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={
        <Text fw={650} size="lg">
          {shown ? 'Invitation ready' : 'Invite people'}
        </Text>
      }
      size="lg"
      centered
      closeOnClickOutside={!shown}
    >
      {shown ? <InvitationLinkReveal invitation={shown} onDone={close} /> : <InviteForm key={formKey} onCreated={setCreated} onCancel={close} />}
    </Modal>
  )
}
