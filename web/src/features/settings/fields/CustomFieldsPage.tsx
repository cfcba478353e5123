// Settings -> Fields (/app/settings/fields): the organization's custom fields per record kind, with
// create, edit and delete. Administrators only; everyone sees the fields in forms, pages and lists.
import { Badge, Button, Code, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core'
import { IconForms, IconPlus } from '@tabler/icons-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { useAllCustomFields, type CustomField } from '../../../api/customFields.ts'
import { useMe } from '../../../api/queries.ts'
import { AdminsOnly } from '../../../components/AdminsOnly.tsx'
import { PageHeader } from '../../../components/PageHeader.tsx'
import { SettingsListPanel } from '../../../components/SettingsListPanel.tsx'
import { appKinds } from '../../../kinds.ts'
import { CustomFieldModal } from './CustomFieldModal.tsx'
import { DeleteCustomFieldButton } from './DeleteCustomFieldButton.tsx'
import { TYPE_COLORS, TYPE_LABELS } from './customFieldText.ts'

function OptionsPreview({ options }: { options: string[] }) {
  if (options.length === 0) return <Text size="sm" c="dimmed">—</Text>
  const shown = options.slice(0, 4)
  return (
    <Group gap={4}>
      {shown.map((o) => (
        <Badge key={o} variant="outline" color="gray" radius="sm" tt="none" fw={500}>
          {o}
        </Badge>
      ))}
      {options.length > shown.length && (
        <Text size="xs" c="dimmed">
          +{options.length - shown.length} more
        </Text>
      )}
    </Group>
  )
}

export function CustomFieldsPage() {
  const me = useMe()
  const isAdmin = me.data?.role === 'admin'
  const all = useAllCustomFields()
  const [params, setParams] = useSearchParams()
  const kindUi = appKinds.find((k) => k.kind.name === params.get('kind')) ?? appKinds[0]!
  const kind = kindUi.kind
  const [editing, setEditing] = useState<CustomField | 'new' | null>(null)

  if (me.isSuccess && !isAdmin) {
    return (
      <>
        <PageHeader eyebrow="Settings" title="Fields" />
        <AdminsOnly
          title="Only administrators can manage fields"
          description="Custom fields shape every record of the organization, so only its administrators can add, change or delete them. You can fill them in on any record."
        />
      </>
    )
  }

  const fields = (all.data ?? []).filter((f) => f.kind === kind.name)
  const countOf = (name: string) => (all.data ?? []).filter((f) => f.kind === name).length
  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
      Add {kind.label.toLowerCase()} field
    </Button>
  )

  return (
    <>
      <PageHeader eyebrow="Settings" title="Fields" actions={fields.length > 0 ? addButton : null} />
      <Text c="dimmed" size="sm" mb="lg" maw={760} mt={-8}>
        Custom fields hold what your organization tracks beyond the standard fields: a customer tier, a renewal date, a score. They appear in
        forms, on record pages, as list columns and filters, and in the API as <Code>custom_fields</Code>. Values are checked on every save.
      </Text>
      <Stack gap="md">
        <SegmentedControl
          aria-label="Record kind"
          value={kind.name}
          onChange={(value) => setParams({ kind: value }, { replace: true })}
          data={appKinds.map(({ kind: k }) => ({ value: k.name, label: countOf(k.name) ? `${k.labelPlural} (${countOf(k.name)})` : k.labelPlural }))}
          style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
        />
        <SettingsListPanel
          query={all}
          noun="fields"
          isEmpty={fields.length === 0}
          empty={{
            icon: <IconForms size={26} />,
            title: `No custom fields on ${kind.labelPlural.toLowerCase()} yet`,
            description: `Add a field to track something every ${kind.label.toLowerCase()} should have. You choose its label, type and whether it is required.`,
            action: addButton,
          }}
        >
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={`${kind.label} fields`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Label</Table.Th>
                  <Table.Th>API name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Options</Table.Th>
                  <Table.Th>Required</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {fields.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {f.label}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{f.name}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={TYPE_COLORS[f.type]} radius="sm" tt="none">
                        {TYPE_LABELS[f.type]}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <OptionsPreview options={f.options} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={f.required ? undefined : 'dimmed'}>
                        {f.required ? 'Required' : 'Optional'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setEditing(f)} aria-label={`Edit ${f.label}`}>
                          Edit
                        </Button>
                        <DeleteCustomFieldButton field={f} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </SettingsListPanel>
      </Stack>
      {editing && <CustomFieldModal key={editing === 'new' ? `new-${kind.name}` : editing.id} kind={kind} field={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </>
  )
}
