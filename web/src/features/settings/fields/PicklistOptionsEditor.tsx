// The options of a picklist: one row per option in display order, removable, with "Add option";
// pressing Enter in the last row adds the next one.
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core'
import { IconPlus, IconTrash } from '@tabler/icons-react'

interface Props {
  options: string[]
  onChange: (options: string[]) => void
  /** Errors by index (`options[2]`), and one for the list as a whole. */
  errors: Record<string, string>
}

export function PicklistOptionsEditor({ options, onChange, errors }: Props) {
  const set = (i: number, value: string) => onChange(options.map((o, j) => (j === i ? value : o)))
  const remove = (i: number) => onChange(options.filter((_, j) => j !== i))
  const add = () => onChange([...options, ''])
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Options <span style={{ color: 'var(--mantine-color-error)' }}>*</span>
      </Text>
      <Text size="xs" c="dimmed" mt={-4}>
        The values people can choose, in the order they appear.
      </Text>
      {options.map((option, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={`Option ${i + 1}`}
            placeholder={`Option ${i + 1}`}
            value={option}
            onChange={(e) => set(i, e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault()
                if (i === options.length - 1) add()
              }
            }}
            error={errors[`options[${i}]`]}
            style={{ flex: 1 }}
          />
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Remove option ${i + 1}`} onClick={() => remove(i)} disabled={options.length === 1}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {errors.options && (
        <Text size="xs" c="red">
          {errors.options}
        </Text>
      )}
      <Group>
        <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={add}>
          Add option
        </Button>
      </Group>
    </Stack>
  )
}
