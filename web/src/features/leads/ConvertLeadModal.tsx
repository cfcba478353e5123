// Convert a lead (POST /leads/{id}/convert): optionally with an opportunity; shows links to
// the account, contact and opportunity it created.
import { Alert, Anchor, Button, Checkbox, List, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconCircleCheck, IconTransform } from '@tabler/icons-react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import { cairn, call } from '../../api/client.ts'
import { storeRecord } from '../../api/queries.ts'
import { accountKind, contactKind, leadKind, opportunityKind, isBlank } from '../../../../src/web-contracts.ts'
import { recordTitle, type CrmRecord } from '../../kinds.ts'

interface Converted {
  lead: CrmRecord
  account: CrmRecord
  contact: CrmRecord
  opportunity: CrmRecord | null
}

export function ConvertLeadButton({ lead }: { lead: CrmRecord }) {
  const [opened, { open, close }] = useDisclosure(false)
  const client = useQueryClient()
  const [withOpportunity, setWithOpportunity] = useState(true)
  const [name, setName] = useState(String(lead.company ?? ''))
  const convert = useMutation({
    mutationFn: () =>
      call(() =>
        cairn.POST('/api/v1/leads/{id}/convert', {
          params: { path: { id: lead.id } },
          body: withOpportunity ? { create_opportunity: true, opportunity_name: isBlank(name) ? undefined : name.trim() } : { create_opportunity: false },
        }),
      ) as Promise<Converted>,
    onSuccess: (result) => {
      storeRecord(client, leadKind, result.lead)
      storeRecord(client, accountKind, result.account)
      storeRecord(client, contactKind, result.contact)
      if (result.opportunity) storeRecord(client, opportunityKind, result.opportunity)
    },
  })
  const converted = lead.status === 'converted'
  const result = convert.data

  return (
    <>
      <Button leftSection={<IconTransform size={16} />} onClick={open} disabled={converted} variant={converted ? 'light' : 'filled'}>
        {converted ? 'Converted' : 'Convert'}
      </Button>
      <Modal opened={opened} onClose={close} title={result ? 'Lead converted' : 'Convert lead'} centered>
        {result ? (
          <Stack>
            <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />}>
              {recordTitle(leadKind, result.lead)} is now a customer.
            </Alert>
            <List spacing="xs" size="sm">
              <List.Item>
                Account:{' '}
                <Anchor component={Link} to={`/accounts/${result.account.id}`} onClick={close}>
                  {recordTitle(accountKind, result.account)}
                </Anchor>
              </List.Item>
              <List.Item>
                Contact:{' '}
                <Anchor component={Link} to={`/contacts/${result.contact.id}`} onClick={close}>
                  {recordTitle(contactKind, result.contact)}
                </Anchor>
              </List.Item>
              {result.opportunity && (
                <List.Item>
                  Opportunity:{' '}
                  <Anchor component={Link} to={`/opportunities/${result.opportunity.id}`} onClick={close}>
                    {recordTitle(opportunityKind, result.opportunity)}
                  </Anchor>
                </List.Item>
              )}
            </List>
            <Button variant="default" onClick={close}>
              Done
            </Button>
          </Stack>
        ) : (
          <Stack>
            <Text size="sm">Converting creates an account and a contact from this lead and marks it converted. This cannot be undone.</Text>
            <Checkbox label="Create an opportunity" checked={withOpportunity} onChange={(e) => setWithOpportunity(e.currentTarget.checked)} />
            {withOpportunity && <TextInput label="Opportunity name" value={name} onChange={(e) => setName(e.currentTarget.value)} />}
            {convert.isError && (
              <Alert color="red" variant="light" role="alert">
                {convert.error.message}
              </Alert>
            )}
            <Button onClick={() => convert.mutate()} loading={convert.isPending}>
              Convert lead
            </Button>
          </Stack>
        )}
      </Modal>
    </>
  )
}
