// Reports: four charts of live data, each from its own endpoint (GET /api/v1/reports/...), all
// filtered by one period and one owner chosen at the top. Amounts appear only for those who may
// read them (erp:read); others see counts. Totals are in the period's main currency, and the
// caption says so when other currencies are left out (amounts of different currencies do not add).
import { useState } from 'react'
import { BarChart, LineChart } from '@mantine/charts'
import { Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core'
import { PageHeader } from '../../components/PageHeader.tsx'
import { useMembers } from '../../api/members.ts'
import { useActivitiesReport, useCasesReport, usePipelineReport, useWonLostReport, type ReportFilters } from '../../api/reports.ts'
import { humanize } from '../../kinds.ts'
import { formatMoney } from '../pipeline/stageTotals.ts'
import { ReportCard } from './ReportCard.tsx'

const COLORS = ['teal.6', 'blue.6', 'violet.6', 'orange.6', 'pink.6', 'cyan.6', 'grape.6', 'lime.6']
const day = (d: Date) => d.toISOString().slice(0, 10)
type Amounts = { currency: string | null; total: string }[] | null

/** The currency with the largest total: the one a chart of amounts is drawn in. */
function mainCurrency(all: Amounts[]): string | null {
  const sums = new Map<string | null, number>()
  for (const list of all) for (const a of list ?? []) sums.set(a.currency, (sums.get(a.currency) ?? 0) + Math.abs(Number(a.total)))
  return [...sums].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null
}
const inCurrency = (list: Amounts, currency: string | null) => Number(list?.find((a) => a.currency === currency)?.total ?? 0)
const otherCurrencies = (all: Amounts[], currency: string | null) => [...new Set(all.flatMap((l) => (l ?? []).map((a) => a.currency)).filter((c) => c !== currency))]

function ownerNamer(owners: { id: string; name: string }[]) {
  const names = new Map(owners.map((o) => [o.id, o.name]))
  return (id: string | null) => (id === null ? 'Unassigned' : (names.get(id) ?? 'Former member'))
}

function PipelineReportCard({ filters }: { filters: ReportFilters }) {
  const result = usePipelineReport(filters)
  return (
    <ReportCard
      title="Pipeline by stage and owner"
      result={result}
      caption={
        result.data && !result.data.amounts_visible
          ? 'Opportunities closing in the period, by stage and owner (amounts need the erp:read scope).'
          : 'Amounts of opportunities closing in the period, by stage and owner.'
      }
      empty={(r) => (r.stages.every((s) => s.count === 0) ? 'No opportunity closes in this period.' : null)}
    >
      {(r) => {
        const name = ownerNamer(r.owners)
        const owners = [...new Set(r.stages.flatMap((s) => s.by_owner.map((o) => o.owner_id)))]
        const currency = mainCurrency(r.stages.map((s) => s.amounts))
        const others = otherCurrencies(r.stages.map((s) => s.amounts), currency)
        const data = r.stages.map((s) => ({
          stage: s.stage ? humanize(s.stage) : 'No stage',
          ...Object.fromEntries(owners.map((o) => [name(o), (() => { const c = s.by_owner.find((b) => b.owner_id === o); return c ? (r.amounts_visible ? inCurrency(c.amounts, currency) : c.count) : 0 })()])),
        }))
        return (
          <>
            <BarChart h={260} data={data} dataKey="stage" type="stacked" withLegend legendProps={{ verticalAlign: 'bottom' }} series={owners.map((o, i) => ({ name: name(o), color: COLORS[i % COLORS.length]! }))} valueFormatter={(v) => (r.amounts_visible ? formatMoney(v, currency) : v.toLocaleString())} tickLine="y" />
            {r.amounts_visible && others.length > 0 && (
              <Text size="xs" c="dimmed" mt="xs">
                In {currency ?? 'no currency'}; amounts in {others.map((c) => c ?? 'no currency').join(', ')} are not drawn.
              </Text>
            )}
          </>
        )
      }}
    </ReportCard>
  )
}

function WonLostReportCard({ filters }: { filters: ReportFilters }) {
  const result = useWonLostReport(filters)
  return (
    <ReportCard title="Won and lost" caption="Opportunities closed won and closed lost, by month of their close date." result={result} empty={(r) => (r.months.every((m) => m.won + m.lost === 0) ? 'No opportunity was won or lost in this period.' : null)}>
      {(r) => {
        const all = r.months.flatMap((m) => [m.won_amounts, m.lost_amounts])
        const currency = mainCurrency(all)
        const wonTotal = r.months.reduce((n, m) => n + inCurrency(m.won_amounts, currency), 0)
        const data = r.months.map((m) => ({ month: new Date(`${m.month}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', year: '2-digit', timeZone: 'UTC' }), Won: m.won, Lost: m.lost }))
        return (
          <>
            <BarChart h={240} data={data} dataKey="month" withLegend legendProps={{ verticalAlign: 'bottom' }} series={[{ name: 'Won', color: 'teal.6' }, { name: 'Lost', color: 'red.5' }]} yAxisProps={{ allowDecimals: false }} tickLine="y" />
            <Text size="sm" mt="xs">
              {r.months.reduce((n, m) => n + m.won, 0).toLocaleString()} won, {r.months.reduce((n, m) => n + m.lost, 0).toLocaleString()} lost
              {r.amounts_visible ? ` · ${formatMoney(wonTotal, currency)} won` : ''}
            </Text>
          </>
        )
      }}
    </ReportCard>
  )
}

function CasesReportCard({ filters }: { filters: ReportFilters }) {
  const result = useCasesReport(filters)
  return (
    <ReportCard title="Cases opened and closed" caption="Cases opened and closed each week of the period, and by priority." result={result} empty={(r) => (r.weeks.every((w) => w.opened + w.closed === 0) ? 'No case was opened or closed in this period.' : null)}>
      {(r) => (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <div style={{ gridColumn: 'span 2' }}>
            <LineChart h={240} data={r.weeks.map((w) => ({ week: new Date(`${w.week}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' }), Opened: w.opened, Closed: w.closed }))} dataKey="week" withLegend legendProps={{ verticalAlign: 'bottom' }} series={[{ name: 'Opened', color: 'orange.6' }, { name: 'Closed', color: 'teal.6' }]} curveType="linear" withDots={false} yAxisProps={{ allowDecimals: false }} tickLine="y" />
          </div>
          <BarChart h={240} data={r.priorities.map((p) => ({ priority: p.priority ? humanize(p.priority) : 'None', Opened: p.opened, Closed: p.closed }))} dataKey="priority" series={[{ name: 'Opened', color: 'orange.6' }, { name: 'Closed', color: 'teal.6' }]} yAxisProps={{ allowDecimals: false }} tickLine="y" />
        </SimpleGrid>
      )}
    </ReportCard>
  )
}

function ActivitiesReportCard({ filters }: { filters: ReportFilters }) {
  const result = useActivitiesReport(filters)
  return (
    <ReportCard title="Activities per owner" caption="Calls, emails, meetings and tasks logged in the period, by owner and kind." result={result} empty={(r) => (r.by_owner.length === 0 ? 'No activity was logged in this period.' : null)}>
      {(r) => {
        const name = ownerNamer(r.owners)
        const kinds = [...new Set(r.by_owner.flatMap((o) => Object.keys(o.by_kind)))].sort()
        const data = r.by_owner.map((o) => ({ owner: name(o.owner_id), ...Object.fromEntries(kinds.map((k) => [humanize(k), o.by_kind[k] ?? 0])) }))
        return <BarChart h={Math.max(160, 48 * data.length + 60)} data={data} dataKey="owner" orientation="vertical" type="stacked" yAxisProps={{ width: 120 }} withLegend legendProps={{ verticalAlign: 'bottom' }} xAxisProps={{ allowDecimals: false }} series={kinds.map((k, i) => ({ name: humanize(k), color: COLORS[i % COLORS.length]! }))} />
      }}
    </ReportCard>
  )
}

export function ReportsPage() {
  const today = new Date()
  const [from, setFrom] = useState(day(new Date(today.getTime() - 364 * 86_400_000)))
  const [to, setTo] = useState(day(today))
  const [ownerId, setOwnerId] = useState<string | null>(null)
  const members = useMembers()
  const people = (members.data?.pages ?? []).flatMap((p) => p.data)
  const filters: ReportFilters = { from, to, ownerId }
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to

  return (
    <Stack gap="lg">
      <PageHeader
        title="Reports"
        actions={
          <Group gap="sm" align="flex-end">
            <TextInput type="date" label="From" value={from} max={to} onChange={(e) => setFrom(e.currentTarget.value)} w={160} />
            <TextInput type="date" label="To" value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} w={160} />
            <Select label="Owner" placeholder="Everyone" clearable data={people.map((p) => ({ value: p.user_id, label: p.name || p.email }))} value={ownerId} onChange={setOwnerId} w={200} searchable />
          </Group>
        }
      />
      {!valid ? (
        <Text c="red">Choose a period whose start is on or before its end.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <PipelineReportCard filters={filters} />
          <WonLostReportCard filters={filters} />
          <CasesReportCard filters={filters} />
          <ActivitiesReportCard filters={filters} />
        </SimpleGrid>
      )}
    </Stack>
  )
}
