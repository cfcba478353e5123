// Convert a lead (POST /leads/{id}/convert) into a new or an existing account and contact (the
// service's suggestions first, chosen when they match), optionally with an opportunity; shows links
// to what it was converted into.
import { Alert, Anchor, Button, Checkbox, Divider, List, Loader, Modal, Stack, Text, TextInput } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconCircleCheck, IconTransform } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { cairn, call } from '../../api/client.ts'
import { storeRecord } from '../../api/queries.ts'
import { accountKind, contactKind, leadKind, opportunityKind, isBlank } from '../../../../src/web-contracts.ts'
import { recordTitle, type CrmRecord } from '../../kinds.ts'
import { convertBody, fetchConversionMatches, NEW } from './conversionChoices.ts'
import { MatchChoice } from './MatchChoice.tsx'

interface Converted {
  conversion?: { account_created: boolean; contact_created: boolean }
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
  const [account, setAccount] = useState(NEW)
  const [contact, setContact] = useState(NEW)
  const matches = useQuery({ queryKey: ['records', leadKind.path, 'conversion-matches', lead.id], queryFn: () => fetchConversionMatches(lead.id), enabled: opened && lead.status !== 'converted' })
  // The best suggestion is chosen when the suggestions arrive: attaching is what most conversions want.
  useEffect(() => {
    if (!matches.data) return
    setAccount(matches.data.accounts[0]?.record.id ?? NEW)
    setContact(matches.data.contacts[0]?.record.id ?? NEW)
  }, [matches.data])
  const convert = useMutation({
    mutationFn: () =>
      call(() =>
        cairn.POST('/api/v1/leads/{id}/convert', {
          params: { path: { id: lead.id } },
          body: convertBody(account, contact, { create: withOpportunity, name: isBlank(name) ? undefined : name.trim() }),
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
              {result.conversion && !result.conversion.account_created ? ' Attached to an existing account.' : ''}
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
            <Text size="sm">Converting attaches this lead to an account and a contact, existing or new, and marks it converted. This cannot be undone.</Text>
            {matches.isPending ? (
              <Loader size="sm" aria-label="Looking for existing records" />
            ) : (
              <>
                <MatchChoice kind={accountKind} newTitle={String(lead.company ?? '')} matches={(matches.data?.accounts ?? []) as { record: CrmRecord; matched_on: string[] }[]} value={account} onChange={setAccount} />
                <MatchChoice kind={contactKind} newTitle={recordTitle(leadKind, lead)} matches={(matches.data?.contacts ?? []) as { record: CrmRecord; matched_on: string[] }[]} value={contact} onChange={setContact} />
              </>
            )}
            <Divider />
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
