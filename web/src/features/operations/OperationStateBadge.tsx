// An operation's state in one badge: being undone, undone (linking to the undo), an undo itself
// (linking to what it undid), or nothing to say.
import { Badge } from '@mantine/core'
import { Link } from 'react-router'
import { isReverting, type Operation } from '../../api/operations.ts'

export function OperationStateBadge({ op }: { op: Operation }) {
  if (isReverting(op.revert)) {
    return (
      <Badge size="sm" variant="light" color="blue" radius="sm">
        Undoing…
      </Badge>
    )
  }
  if (op.reverted_by) {
    return (
      <Badge component={Link} to={`/operations/${op.reverted_by}`} size="sm" variant="light" color="gray" radius="sm" style={{ cursor: 'pointer' }} data-reverted>
        Undone
      </Badge>
    )
  }
  if (op.reverts) {
    return (
      <Badge component={Link} to={`/operations/${op.reverts}`} size="sm" variant="light" color="violet" radius="sm" style={{ cursor: 'pointer' }}>
        An undo
      </Badge>
    )
  }
  return null
}
