// The events of a webhook as a checklist grouped by entity, each group with "All <entity> events".
import { Checkbox, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core'
import { actionLabel, ENTITIES, ENTITY_LABELS, eventsOf } from './webhookText.ts'

export function EventChecklist({ value, onChange, error }: { value: string[]; onChange: (events: string[]) => void; error?: string }) {
  const toggle = (names: string[], on: boolean) => onChange(on ? [...new Set([...value, ...names])] : value.filter((v) => !names.includes(v)))
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Events
        </Text>
        <Text size="xs" c="dimmed">
          {value.length} selected
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs">
        {ENTITIES.map((entity) => {
          const names = eventsOf(entity)
          const chosen = names.filter((n) => value.includes(n)).length
          return (
            <Paper key={entity} withBorder radius="sm" p="sm" role="group" aria-label={`${ENTITY_LABELS[entity]} events`}>
              <Checkbox
                label={<Text size="sm" fw={600}>{`All ${ENTITY_LABELS[entity].toLowerCase()} events`}</Text>}
                checked={chosen === names.length}
                indeterminate={chosen > 0 && chosen < names.length}
                onChange={(e) => toggle(names, e.currentTarget.checked)}
              />
              <Stack gap={6} mt={8} pl={28}>
                {names.map((name) => (
                  <Checkbox
                    key={name}
                    size="xs"
                    value={name}
                    label={
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{actionLabel(name)}</Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {name}
                        </Text>
                      </Group>
                    }
                    checked={value.includes(name)}
                    onChange={(e) => toggle([name], e.currentTarget.checked)}
                  />
                ))}
              </Stack>
            </Paper>
          )
        })}
      </SimpleGrid>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  )
}
