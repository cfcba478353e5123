// The filter of a webhook as a JSON editor: examples to start from, the grammar in one line, JSON
// syntax checked as it is typed, and the server's checks (unknown fields, values of the wrong kind)
// listed under it by the part of the filter they name.
import { Button, Group, JsonInput, List, Stack, Switch, Text } from '@mantine/core'
import type { FieldError } from '../../api/client.ts'
import { describeFilter } from './webhookText.ts'

const EXAMPLES: Array<{ label: string; filter: object }> = [
  { label: 'Won or lost deals', filter: { all: [{ field: 'stage', in: ['closed_won', 'closed_lost'] }, { changed: 'stage' }] } },
  { label: 'Large amounts', filter: { field: 'amount', gte: 10000 } },
  { label: 'Stage changed', filter: { changed: 'stage' } },
]

export interface FilterDraft {
  enabled: boolean
  text: string
}

export function draftOf(filter: object | null | undefined): FilterDraft {
  return { enabled: !!filter, text: filter ? JSON.stringify(filter, null, 2) : '' }
}

/** The filter to send: null when off; undefined when the text is not JSON (the editor says so). */
export function filterOf(draft: FilterDraft): Record<string, unknown> | null | undefined {
  if (!draft.enabled) return null
  try {
    const parsed: unknown = JSON.parse(draft.text)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

export function FilterEditor({ value, onChange, errors }: { value: FilterDraft; onChange: (v: FilterDraft) => void; errors: FieldError[] }) {
  const parsed = filterOf(value)
  return (
    <Stack gap={6}>
      <Switch
        label="Only send events whose record matches a filter"
        description="Judged when each delivery is due; events that do not match show as Filtered in the log and are not sent."
        checked={value.enabled}
        onChange={(e) => onChange({ ...value, enabled: e.currentTarget.checked })}
      />
      {value.enabled && (
        <>
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              Start from:
            </Text>
            {EXAMPLES.map((x) => (
              <Button key={x.label} size="compact-xs" variant="light" onClick={() => onChange({ enabled: true, text: JSON.stringify(x.filter, null, 2) })}>
                {x.label}
              </Button>
            ))}
          </Group>
          <JsonInput
            label="Filter"
            aria-label="Filter"
            description={'Conditions on the record: {"field": f, "in": [...]} or eq, ne, gt, gte, lt, lte instead of in; {"changed": f}; combined with all, any, not.'}
            placeholder={'{"field": "stage", "in": ["closed_won", "closed_lost"]}'}
            value={value.text}
            onChange={(text) => onChange({ ...value, text })}
            validationError="Not valid JSON"
            formatOnBlur
            autosize
            minRows={4}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            error={errors.length > 0 ? ' ' : undefined}
          />
          {errors.length > 0 && (
            <List size="xs" c="red.8" spacing={2} aria-label="Filter errors">
              {errors.map((e) => (
                <List.Item key={`${e.field}:${e.message}`}>
                  <Text span ff="monospace" size="xs" fw={600}>
                    {e.field}
                  </Text>{' '}
                  {e.message}
                </List.Item>
              ))}
            </List>
          )}
          {parsed && errors.length === 0 && (
            <Text size="xs" c="dimmed">
              Sends events where {describeFilter(parsed)}.
            </Text>
          )}
        </>
      )}
    </Stack>
  )
}
