// What else the analysis found about the source: automation that will not come along, owners that
// match no member, and duplicates in the sampled emails.
import { List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core'
import type { AnalysisReport } from '../../../api/migration.ts'
import { AUTOMATION_LEVEL, plural } from '../migrationText.ts'

const SHOWN = 6

function Automation({ a }: { a: AnalysisReport['automation'] }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>Automation · {AUTOMATION_LEVEL[a.level].label.toLowerCase()}</Text>
      {a.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No triggers, flows or workflow rules.
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Cairn does not run the source&apos;s automation; rebuild what matters with webhooks or in Cairn.
          </Text>
          <List size="sm" spacing={2}>
            {a.items.slice(0, SHOWN).map((i) => (
              <List.Item key={`${i.kind}-${i.name}`}>
                {i.name} <Text span size="xs" c="dimmed">({i.detail})</Text>
              </List.Item>
            ))}
          </List>
          {a.items.length > SHOWN && <Text size="xs" c="dimmed">and {a.items.length - SHOWN} more (see the downloaded report)</Text>}
        </>
      )}
    </Stack>
  )
}

function Owners({ owners }: { owners: AnalysisReport['owners'] }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>
        Owners · {owners.matched} of {plural(owners.source_users, 'user')} matched
      </Text>
      <Text size="sm" c="dimmed">
        Record owners become the member with the same email. Invite the others first, or their records are imported without an owner.
      </Text>
      {owners.unmatched.length > 0 && (
        <List size="sm" spacing={2}>
          {owners.unmatched.slice(0, SHOWN).map((u) => (
            <List.Item key={u.src_id}>
              {u.name} <Text span size="xs" c="dimmed">{u.email ?? 'no email'}{u.active ? '' : ', inactive'}</Text>
            </List.Item>
          ))}
        </List>
      )}
      {owners.unmatched.length > SHOWN && <Text size="xs" c="dimmed">and {owners.unmatched.length - SHOWN} more</Text>}
    </Stack>
  )
}

function Duplicates({ duplicates }: { duplicates: AnalysisReport['duplicates'] }) {
  return (
    <Stack gap={4}>
      <Text fw={600}>Possible duplicates</Text>
      {duplicates.every((d) => d.duplicate_groups === 0) ? (
        <Text size="sm" c="dimmed">
          No repeated emails in the records sampled.
        </Text>
      ) : (
        <List size="sm" spacing={2}>
          {duplicates
            .filter((d) => d.duplicate_groups > 0)
            .map((d) => (
              <List.Item key={d.object}>
                {d.object}: {plural(d.duplicate_groups, 'repeated email')} in {d.sampled.toLocaleString()} sampled
                {d.examples.length > 0 && <Text span size="xs" c="dimmed"> (e.g. {d.examples.slice(0, 2).join(', ')})</Text>}
              </List.Item>
            ))}
        </List>
      )}
      <Text size="xs" c="dimmed">
        Deduplication rules in Configure decide what happens to them.
      </Text>
    </Stack>
  )
}

export function SourceFindings({ report }: { report: AnalysisReport }) {
  return (
    <Paper withBorder radius="md" shadow="xs" p="md">
      <Title order={4} mb="md">
        Automation, owners and duplicates
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xl">
        <Automation a={report.automation} />
        <Owners owners={report.owners} />
        <Duplicates duplicates={report.duplicates} />
      </SimpleGrid>
    </Paper>
  )
}
