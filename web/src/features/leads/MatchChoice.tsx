// One side of a conversion (the account or the contact): create a new record from the lead, or
// attach to one of the existing records the service suggests, each with why it matches.
import { Badge, Group, Radio, Stack, Text } from '@mantine/core'
import { recordTitle, type CrmRecord, type RecordKind } from '../../kinds.ts'
import { NEW, reasonText } from './conversionChoices.ts'

interface Props {
  kind: RecordKind
  /** What a new record would be called: the lead's company, or its name. */
  newTitle: string
  matches: { record: CrmRecord; matched_on: string[] }[]
  value: string
  onChange: (value: string) => void
}

export function MatchChoice({ kind, newTitle, matches, value, onChange }: Props) {
  const label = kind.label.toLowerCase()
  return (
    <Radio.Group label={kind.label} value={value} onChange={onChange} name={`convert-${kind.name}`}>
      <Stack gap={8} mt={6}>
        {matches.map((m) => (
          <Radio
            key={m.record.id}
            value={m.record.id}
            label={
              <Group gap={6} wrap="nowrap">
                <Text size="sm">Use {recordTitle(kind, m.record)}</Text>
                <Badge size="xs" variant="light" color="teal">
                  {reasonText(m.matched_on)}
                </Badge>
              </Group>
            }
          />
        ))}
        <Radio value={NEW} label={<Text size="sm">Create a new {label}{newTitle ? `: ${newTitle}` : ''}</Text>} />
      </Stack>
    </Radio.Group>
  )
}
