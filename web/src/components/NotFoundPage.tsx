// The page for an /app path that names nothing: a kind that does not exist, or a typo.
import { Button, EmptyState } from '@mantine/core'
import { IconMapOff } from '@tabler/icons-react'
import { Link } from 'react-router'

export function NotFoundPage({ what = 'page' }: { what?: string }) {
  return (
    <EmptyState
      mt="xl"
      icon={<IconMapOff size={28} />}
      withIndicatorBackground
      title={`This ${what} does not exist`}
      description="It may have been deleted, or the link is wrong."
    >
      <EmptyState.Actions>
        <Button component={Link} to="/" variant="light">
          Go to overview
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
