// What a member sees on the webhook pages (the list and one webhook): every webhook operation,
// reading included, is for administrators (docs/members.md, Who may do what).
import { useMe } from '../../api/queries.ts'
import { AdminsOnly } from '../../components/AdminsOnly.tsx'

export function WebhooksAdminsOnly() {
  const me = useMe()
  const organization = me.data?.organization.name || 'this organization'
  return (
    <AdminsOnly
      title="Only administrators can manage webhooks"
      description={`Webhooks send the changes of ${organization} to other systems, so only its administrators can see or change them.`}
    />
  )
}
