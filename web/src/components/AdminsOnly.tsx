// What a member (not an administrator) sees on an administrators' settings page.
import { Button, EmptyState } from '@mantine/core'
import { IconLock } from '@tabler/icons-react'
import { Link } from 'react-router'

export function AdminsOnly({ title, description }: { title: string; description: string }) {
  return (
    <EmptyState mt="xl" icon={<IconLock size={26} />} withIndicatorBackground title={title} description={description}>
      <EmptyState.Actions>
        <Button component={Link} to="/" variant="light">
          Go to overview
        </Button>
      </EmptyState.Actions>
    </EmptyState>
  )
}
