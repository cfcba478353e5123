// What could go wrong, most severe first, each with the action the analysis recommends. Low risks
// are often many small notes, so past a few they wait behind "Show all".
import { Anchor, Badge, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core'
import { IconArrowRight, IconShieldCheck } from '@tabler/icons-react'
import { useState } from 'react'
import type { RiskItem } from '../../../api/migration.ts'
import { SEVERITY } from '../migrationText.ts'

const ORDER = ['high', 'medium', 'low'] as const
const LOW_SHOWN = 3

function Risk({ risk }: { risk: RiskItem }) {
  return (
    <Paper withBorder radius="sm" p="sm" style={{ borderLeft: `3px solid var(--mantine-color-${SEVERITY[risk.severity].color}-5)` }} data-risk={risk.code}>
      <Group gap="xs" mb={4}>
        <Text size="sm" fw={600}>
          {risk.title}
        </Text>
        {risk.object && (
          <Badge size="xs" variant="default" tt="none">
            {risk.object}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {risk.detail}
      </Text>
      <Group gap={6} mt={6} wrap="nowrap" align="flex-start">
        <IconArrowRight size={16} color="var(--mantine-color-teal-7)" style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm">
          <Text span fw={600}>
            Recommended:
          </Text>{' '}
          {risk.recommended_action}
        </Text>
      </Group>
    </Paper>
  )
}

export function RisksPanel({ risks }: { risks: RiskItem[] }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="md">
      <Title order={4} mb="sm">
        Risks and recommended actions
      </Title>
      {risks.length === 0 ? (
        <Group gap="sm">
          <ThemeIcon variant="light" color="teal" radius="xl">
            <IconShieldCheck size={16} />
          </ThemeIcon>
          <Text size="sm">No risks found: everything selected maps without loss.</Text>
        </Group>
      ) : (
        <Stack gap="lg">
          {ORDER.filter((s) => risks.some((r) => r.severity === s)).map((severity) => (
            <SeverityGroup key={severity} severity={severity} risks={risks.filter((r) => r.severity === severity)} />
          ))}
        </Stack>
      )}
    </Paper>
  )
}

function SeverityGroup({ severity, risks }: { severity: RiskItem['severity']; risks: RiskItem[] }) {
  const [all, setAll] = useState(severity !== 'low')
  const shown = all ? risks : risks.slice(0, LOW_SHOWN)
  return (
    <Stack gap="xs" role="group" aria-label={`${SEVERITY[severity].label} risks`}>
      <Group gap="xs">
        <Badge color={SEVERITY[severity].color} variant="filled">
          {SEVERITY[severity].label}
        </Badge>
        <Text size="sm" c="dimmed">
          {risks.length} risk{risks.length > 1 ? 's' : ''}
        </Text>
      </Group>
      {shown.map((r, i) => (
        // The same code may concern one object twice (two merged picklists).
        <Risk key={`${i}-${r.code}-${r.object ?? ''}`} risk={r} />
      ))}
      {shown.length < risks.length && (
        <Anchor component="button" type="button" size="sm" onClick={() => setAll(true)} style={{ alignSelf: 'flex-start' }}>
          Show all {risks.length} {SEVERITY[severity].label.toLowerCase()} risks
        </Anchor>
      )}
    </Stack>
  )
}
