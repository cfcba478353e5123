// "Load more" under a keyset-paged list, shown only while there is more.
import { Button, Center } from '@mantine/core'

export function LoadMore({ hasMore, loading, onLoad }: { hasMore: boolean; loading: boolean; onLoad: () => void }) {
  if (!hasMore) return null
  return (
    <Center mt="md">
      <Button variant="default" size="xs" onClick={onLoad} loading={loading}>
        Load more
      </Button>
    </Center>
  )
}
