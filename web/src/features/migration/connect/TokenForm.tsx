// Connecting without the OAuth consent: the instance URL and an access token (with an optional
// refresh token, so a long import survives the token's expiry). Server field errors land under
// their inputs; on success the wizard opens the new migration.
import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core'
import { IconAlertCircle } from '@tabler/icons-react'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { ApiError } from '../../../api/client.ts'
import { useAnalyzeWithToken, type SourceEnvironment } from '../../../api/migration.ts'
import { ENVIRONMENT_LABEL } from '../migrationText.ts'

type Field = 'src_instance_url' | 'src_access_token' | 'src_refresh_token'

function fieldErrors(error: unknown): Partial<Record<Field | 'other', string>> {
  if (!(error instanceof ApiError)) return {}
  const out: Partial<Record<Field | 'other', string>> = {}
  for (const e of error.fieldErrors) {
    const field = e.field.replace(/^\/+/, '').split(/[./]/)[0] as Field
    if (['src_instance_url', 'src_access_token', 'src_refresh_token'].includes(field)) out[field] = e.message.charAt(0).toUpperCase() + e.message.slice(1)
  }
  if (Object.keys(out).length === 0) out.other = error.message
  return out
}

export function TokenForm({ environment }: { environment: SourceEnvironment }) {
  const analyze = useAnalyzeWithToken()
  const navigate = useNavigate()
  const [instanceUrl, setInstanceUrl] = useState('')
  const [accessToken, setAccessToken] = useState('')
  const [refreshToken, setRefreshToken] = useState('')
  const errors = fieldErrors(analyze.error)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    analyze.mutate(
      { src_instance_url: instanceUrl.trim(), src_access_token: accessToken.trim(), src_refresh_token: refreshToken.trim() || undefined, environment },
      { onSuccess: (m) => navigate(`/migration/${m.id}`) },
    )
  }

  return (
    <form onSubmit={submit} aria-label="Token connection">
      <Stack gap="sm" maw={620}>
        <TextInput
          label="Instance URL"
          description="The address of your org, e.g. https://acme.my.salesforce.com"
          placeholder="https://yourcompany.my.salesforce.com"
          required
          value={instanceUrl}
          onChange={(e) => setInstanceUrl(e.currentTarget.value)}
          error={errors.src_instance_url}
        />
        <PasswordInput
          label="Access token"
          description="Stored encrypted, never shown again, and deleted when the migration ends."
          required
          value={accessToken}
          onChange={(e) => setAccessToken(e.currentTarget.value)}
          error={errors.src_access_token}
        />
        <PasswordInput
          label="Refresh token (optional)"
          description="Lets a long import continue after the access token expires."
          value={refreshToken}
          onChange={(e) => setRefreshToken(e.currentTarget.value)}
          error={errors.src_refresh_token}
        />
        {errors.other && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {errors.other}
          </Alert>
        )}
        <Group>
          <Button type="submit" variant="light" loading={analyze.isPending} disabled={!instanceUrl.trim() || !accessToken.trim()}>
            Analyze {ENVIRONMENT_LABEL[environment].toLowerCase()} with this token
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
