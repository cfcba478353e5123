// Import a CSV file into one kind of record, in three steps: choose the file (and whether rows
// that match an existing record update it), review which field each column fills, then follow the
// import until it ends. The mapping is proposed from the header as the server would propose it
// (src/imports/header-mapping.ts), with the person's last mapping of the kind laid over it for the
// columns the new file shares with that import; the person's choice is what the server uses.
import { useState } from 'react'
import { Alert, Button, FileInput, Group, Modal, Select, Stack, Stepper, Text } from '@mantine/core'
import { IconAlertTriangle, IconFileTypeCsv } from '@tabler/icons-react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { dedupeKeysOf, importableFields, proposeMapping, withRememberedMapping } from '../../../../src/web-contracts.ts'
import { ApiError } from '../../api/client.ts'
import { startImport, useImport, useLastImportMapping, isRunning } from '../../api/imports.ts'
import { useCustomFields } from '../../api/customFields.ts'
import type { RecordKind } from '../../kinds.ts'
import { ColumnMappingTable } from './ColumnMappingTable.tsx'
import { readCsvPreview, type CsvPreview } from './csvHeader.ts'
import { ImportProgress } from './ImportProgress.tsx'

const DEDUPE_LABELS: Record<string, string> = { email: 'Email', domain: 'Domain', name: 'Name', src_id: 'Source id (src_id)' }
const NO_DEDUPE = '__none__'

export default function ImportDialog({ kind, onClose }: { kind: RecordKind; onClose(): void }) {
  const client = useQueryClient()
  const [step, setStep] = useState(0)
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<CsvPreview | null>(null)
  const [readError, setReadError] = useState<string | null>(null)
  const [mapping, setMapping] = useState<Record<string, string | null>>({})
  const [dedupeBy, setDedupeBy] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<ApiError | null>(null)
  const [importId, setImportId] = useState<string | null>(null)
  const imp = useImport(importId)
  // The organization's custom fields of the kind are targets too (`custom_fields.<name>`).
  const custom = useCustomFields(kind.name).fields
  const fields = importableFields(kind, custom)
  const last = useLastImportMapping(kind)
  const plural = kind.labelPlural.toLowerCase()

  const choose = async (picked: File | null) => {
    setFile(picked)
    setPreview(null)
    setReadError(null)
    if (!picked) return
    try {
      const read = await readCsvPreview(picked)
      if (read.columns.length === 0) throw new Error('The file is empty: its first row must name the columns.')
      setPreview(read)
      setMapping(withRememberedMapping(proposeMapping(kind, read.columns, custom), last.data?.mapping ?? null, fields))
    } catch (err) {
      setReadError(err instanceof Error ? err.message : String(err))
    }
  }

  const mapped = Object.values(mapping).filter((f): f is string => f !== null)
  const duplicate = mapped.length !== new Set(mapped).size
  const missing = dedupeBy ? [] : fields.filter((f) => f.required && !mapped.includes(f.name))
  const dedupeUnmapped = dedupeBy !== null && !mapped.includes(dedupeBy)
  const canStart = mapped.length > 0 && !duplicate && missing.length === 0 && !dedupeUnmapped

  const start = async () => {
    setStarting(true)
    setStartError(null)
    try {
      const started = await startImport({ kind, file: file!, mapping, dedupeBy })
      setImportId(started.id)
      setStep(2)
    } catch (err) {
      setStartError(err instanceof ApiError ? err : new ApiError({ status: 0, detail: String(err) }))
    } finally {
      setStarting(false)
    }
  }

  const close = () => {
    if (importId) {
      void client.invalidateQueries({ queryKey: ['records', kind.path] })
      void client.invalidateQueries({ queryKey: ['imports', 'last-mapping', kind.path] })
    }
    onClose()
  }
  const running = isRunning(imp.data)

  return (
    <Modal opened onClose={close} title={`Import ${plural}`} size="xl" centered closeOnClickOutside={false}>
      <Stepper active={step} size="sm" mb="lg" allowNextStepsSelect={false}>
        <Stepper.Step label="Choose a file" />
        <Stepper.Step label="Match columns" />
        <Stepper.Step label="Import" />
      </Stepper>

      {step === 0 && (
        <Stack gap="md">
          <FileInput
            label="CSV file"
            description="UTF-8 text with a header row naming the columns (Excel: Save as → CSV UTF-8)."
            placeholder="Choose a .csv file"
            accept=".csv,text/csv"
            leftSection={<IconFileTypeCsv size={18} />}
            value={file}
            onChange={(f) => void choose(f)}
            clearable
          />
          {readError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="This file cannot be read">
              {readError}
            </Alert>
          )}
          {preview && (
            <Text size="sm" c="dimmed">
              {preview.columns.length} columns; {Object.values(mapping).filter(Boolean).length} match fields of {plural}.
            </Text>
          )}
          <Select
            label="When a row matches an existing record"
            description={`Rows whose value matches a ${kind.label.toLowerCase()} update it instead of creating another.`}
            data={[{ value: NO_DEDUPE, label: `Always create a new ${kind.label.toLowerCase()}` }, ...dedupeKeysOf(kind).map((k) => ({ value: k, label: `Update the ${kind.label.toLowerCase()} with the same ${DEDUPE_LABELS[k].toLowerCase()}` }))]}
            value={dedupeBy ?? NO_DEDUPE}
            onChange={(v) => setDedupeBy(v === NO_DEDUPE ? null : v)}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button disabled={!preview} onClick={() => setStep(1)}>
              Next: match columns
            </Button>
          </Group>
        </Stack>
      )}

      {step === 1 && preview && (
        <Stack gap="md">
          <Text size="sm">
            Each column of <b>{file?.name}</b> fills the field chosen here. Columns set to “Don’t import” are left out. Nothing is imported until you start.
          </Text>
          <ColumnMappingTable columns={preview.columns} sample={preview.sample} fields={fields} mapping={mapping} onChange={(c, f) => setMapping((m) => ({ ...m, [c]: f }))} />
          {missing.length > 0 && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
              Every new {kind.label.toLowerCase()} needs {missing.map((f) => f.label.toLowerCase()).join(', ')}: choose the column that holds it.
            </Alert>
          )}
          {dedupeUnmapped && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />}>
              Matching by {DEDUPE_LABELS[dedupeBy!].toLowerCase()} needs a column that imports into it.
            </Alert>
          )}
          {startError && (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The import was not started">
              {startError.message}
              {startError.fieldErrors.length > 0 && (
                <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
                  {startError.fieldErrors.map((e) => (
                    <li key={`${e.field}${e.message}`}>
                      {e.field}: {e.message}
                    </li>
                  ))}
                </ul>
              )}
            </Alert>
          )}
          <Group justify="space-between">
            <Button variant="default" onClick={() => setStep(0)}>
              Back
            </Button>
            <Button onClick={() => void start()} loading={starting} disabled={!canStart}>
              Start import
            </Button>
          </Group>
        </Stack>
      )}

      {step === 2 && (
        <Stack gap="md">
          {imp.data ? <ImportProgress imp={imp.data} /> : <Text size="sm">Starting…</Text>}
          {imp.isError && (
            <Alert color="red" variant="light" title="Could not read the import's progress">
              {imp.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            {imp.data && (
              <Button component={Link} to={`/imports/${imp.data.id}`} variant="subtle" onClick={close}>
                Open the import’s page
              </Button>
            )}
            <Button onClick={close} variant={running ? 'default' : 'filled'}>
              {running ? 'Close (the import goes on)' : 'Done'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}
