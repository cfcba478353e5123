// Field mapping of the selected objects: each source field goes to a Cairn field of the object's
// kind, is kept as a custom field, or is ignored. The analysis' choice is the default; only changes
// are stored (as overrides), and each can be reset.
import { Accordion, ActionIcon, Badge, Group, Paper, Select, Table, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconArrowBackUp, IconSearch } from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import type { AnalysisReport, FieldMapping, MigrationConfig, ObjectAnalysis } from '../../../api/migration.ts'
import type { KindName } from '../../../kinds.ts'
import { MAPPING_STATUS, targetLabel } from '../migrationText.ts'
import { ACTION_LABEL, mappingTarget, SourceFieldName } from '../report/SourceFieldName.tsx'
import { analysisChoice, choiceNote, choiceOf, choicesFor, hasValue, withFieldChoice, type ConfigErrors } from './configForm.ts'

interface EditorProps {
  config: MigrationConfig
  errors: ConfigErrors | null
  onChange: (c: MigrationConfig) => void
  /** The import has started: readable, not changeable. */
  locked: boolean
}

function FieldRow({ o, f, kind, ...props }: EditorProps & { o: ObjectAnalysis; f: FieldMapping; kind: KindName }) {
  const override = props.config.field_overrides[o.name]?.[f.source]
  const choice = choiceOf(f, override)
  const error = props.errors?.field[`${o.name}.${f.source}`]
  const note = choiceNote(kind, f, choice)
  return (
    <Table.Tr data-field={f.source} bg={override ? 'var(--mantine-color-teal-0)' : undefined}>
      <Table.Td>
        <SourceFieldName field={f} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {f.source_type}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {ACTION_LABEL[f.action]}
          {f.action !== 'ignore' && f.action !== 'custom_field' && (
            <Text span size="sm" ff="monospace" c="dimmed">
              {' '}
              → {mappingTarget(f)}
            </Text>
          )}
        </Text>
        {f.status === 'lossy' && (
          <Badge size="xs" variant="light" color={MAPPING_STATUS.lossy.color}>
            Lossy
          </Badge>
        )}
      </Table.Td>
      <Table.Td miw={300}>
        <Group gap={6} wrap="nowrap" align="flex-start">
          <Select
            aria-label={`Import ${o.name}.${f.source} as`}
            data={choicesFor(kind, f)}
            value={choice}
            onChange={(v) => v && props.onChange(withFieldChoice(props.config, o.name, f, v))}
            allowDeselect={false}
            disabled={props.locked || !hasValue(f)}
            error={error}
            description={note}
            size="xs"
            style={{ flex: 1 }}
          />
          {override && !props.locked && (
            <Tooltip label="Back to the analysis' mapping" withArrow>
              <ActionIcon variant="subtle" color="gray" aria-label={`Reset ${f.source}`} onClick={() => props.onChange(withFieldChoice(props.config, o.name, f, analysisChoice(f)))}>
                <IconArrowBackUp size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

function ObjectFields({ o, ...props }: EditorProps & { o: ObjectAnalysis }) {
  const [filter, setFilter] = useState('')
  const q = filter.trim().toLowerCase()
  const fields = q ? o.fields.filter((f) => f.source.toLowerCase().includes(q) || f.label.toLowerCase().includes(q)) : o.fields
  return (
    <>
      {props.errors?.mapping[o.name] && (
        <Text size="sm" c="red.7" mb="xs" role="alert">
          {props.errors.mapping[o.name]}
        </Text>
      )}
      <TextInput
        size="xs"
        maw={280}
        mb="xs"
        leftSection={<IconSearch size={14} />}
        placeholder="Find a field"
        aria-label={`Find a field of ${o.label}`}
        value={filter}
        onChange={(e) => setFilter(e.currentTarget.value)}
      />
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing={6} fz="sm" aria-label={`${o.label} field mapping`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Source field</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Analysis</Table.Th>
              <Table.Th>Import as</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((f) => (
              <FieldRow key={f.source} o={o} f={f} kind={o.target!} {...props} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  )
}

export function FieldMappingEditor({ report, ...props }: EditorProps & { report: AnalysisReport }) {
  const selected = report.objects.filter((o) => props.config.objects.includes(o.name) && o.target && o.fields.length > 0)
  const failing = selected.filter((o) => props.errors?.mapping[o.name] || o.fields.some((f) => props.errors?.field[`${o.name}.${f.source}`])).map((o) => o.name)
  const [opened, setOpened] = useState<string[]>([])
  // Objects the server found a problem in open by themselves, so the error is in sight.
  const failingKey = failing.join(',')
  useEffect(() => {
    if (failingKey) setOpened((open) => [...new Set([...open, ...failingKey.split(',')])])
  }, [failingKey])
  return (
    <Paper withBorder radius="md" shadow="xs" component="fieldset" style={{ margin: 0, padding: 0, minWidth: 0 }} aria-label="Field mapping">
      <Title order={4} p="md" pb={4}>
        Field mapping
      </Title>
      <Text size="sm" c="dimmed" px="md" pb="sm" maw={860}>
        Send a field to another Cairn field, keep it as a custom field (kept on the record, searchable through the API), or ignore it. Only the
        fields you change differ from the report.
      </Text>
      {selected.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="md">
          Select an object above to adjust its fields.
        </Text>
      ) : (
        <Accordion multiple chevronPosition="left" keepMounted={false} value={opened} onChange={setOpened}>
          {selected.map((o) => {
            const changed = Object.keys(props.config.field_overrides[o.name] ?? {}).length
            return (
              <Accordion.Item key={o.name} value={o.name}>
                <Accordion.Control aria-label={`${o.label} field mapping`}>
                  <Group gap="sm">
                    <Text fw={600} size="sm">
                      {o.label}
                    </Text>
                    <Text size="sm" c="dimmed">
                      → {targetLabel(o.target)} · {o.fields.length} fields
                    </Text>
                    {changed > 0 && (
                      <Badge size="sm" color="teal" variant="light">
                        {changed} changed
                      </Badge>
                    )}
                    {failing.includes(o.name) && (
                      <Badge size="sm" color="red" variant="light">
                        Needs a fix
                      </Badge>
                    )}
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <ObjectFields o={o} {...props} />
                </Accordion.Panel>
              </Accordion.Item>
            )
          })}
        </Accordion>
      )}
    </Paper>
  )
}
