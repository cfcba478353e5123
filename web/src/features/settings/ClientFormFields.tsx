// Inputs of the Create client form: redirect URI rows (add/remove, at least one) and the scope
// choices with what each one allows, in plain language.
import { ActionIcon, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core'
import { IconPlus, IconTrash } from '@tabler/icons-react'
import { SCOPES } from './apiClientText.ts'

const MAX_URIS = 10

interface RowsProps {
  uris: string[]
  onChange: (uris: string[]) => void
  /** Error per row index. */
  errors: Record<number, string>
  listError?: string
}

export function RedirectUriRows({ uris, onChange, errors, listError }: RowsProps) {
  const setUri = (index: number, value: string) => onChange(uris.map((u, i) => (i === index ? value : u)))
  return (
    <Stack gap={6}>
      <div>
        <Text size="sm" fw={500}>
          Redirect URIs{' '}
          <Text span c="red">
            *
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          Where people return after approving access: https, or http on localhost / 127.0.0.1 for local tools.
        </Text>
      </div>
      {uris.map((uri, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            aria-label={`Redirect URI ${i + 1}`}
            placeholder="https://app.example.com/oauth/callback"
            value={uri}
            onChange={(e) => setUri(i, e.currentTarget.value)}
            error={errors[i]}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size={36}
            aria-label={`Remove redirect URI ${i + 1}`}
            disabled={uris.length === 1}
            onClick={() => onChange(uris.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {listError && (
        <Text size="xs" c="red">
          {listError}
        </Text>
      )}
      <Group>
        <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} disabled={uris.length >= MAX_URIS} onClick={() => onChange([...uris, ''])}>
          Add redirect URI
        </Button>
      </Group>
    </Stack>
  )
}

export function ScopeChoices({ value, onChange, error }: { value: string[]; onChange: (scopes: string[]) => void; error?: string }) {
  return (
    <Checkbox.Group label="Scopes" withAsterisk description="What the integration may do. People approving access see the same list." value={value} onChange={onChange} error={error}>
      <Stack gap="xs" mt="xs">
        {SCOPES.map((s) => (
          <Checkbox.Card key={s.scope} value={s.scope} radius="md" p="sm" aria-label={`${s.scope}: ${s.title}`}>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Checkbox.Indicator mt={2} />
              <div>
                <Group gap={6}>
                  <Text size="sm" fw={600}>
                    {s.title}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {s.scope}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed">
                  {s.description}
                </Text>
              </div>
            </Group>
          </Checkbox.Card>
        ))}
      </Stack>
    </Checkbox.Group>
  )
}
