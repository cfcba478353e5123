// A case's comment thread, oldest first with "Load more", and the form to add a comment.
import { Avatar, Badge, Button, Center, Checkbox, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core'
import { IconMessageCircle } from '@tabler/icons-react'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError, cairn, call, type Page } from '../../api/client.ts'
import { useMe } from '../../api/queries.ts'
import { ErrorState } from '../../components/ErrorState.tsx'
import { formatDateTime, type CrmRecord } from '../../kinds.ts'
import { isBlank } from '../../../../src/web-contracts.ts'

/** Also the prefix of the thread's count (the record page's Comments tab): adding refreshes both. */
export const commentsKey = (caseId: string) => ['case-comments', caseId] as const

function Comment({ comment, myId, myName }: { comment: CrmRecord; myId?: string; myName?: string }) {
  const author = (comment.author_user_id && comment.author_user_id === myId ? myName : null) ?? (comment.author_name as string | null) ?? 'Team member'
  return (
    <Group align="flex-start" gap="sm" wrap="nowrap">
      <Avatar radius="xl" size={32} color="teal">
        {author.charAt(0).toUpperCase()}
      </Avatar>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {author}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(comment.created_at)}
          </Text>
          <Badge size="xs" variant="light" color={comment.is_public ? 'blue' : 'gray'}>
            {comment.is_public ? 'Public' : 'Internal'}
          </Badge>
        </Group>
        <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {String(comment.body ?? '')}
        </Text>
      </div>
    </Group>
  )
}

export function CaseComments({ caseId }: { caseId: string }) {
  const me = useMe()
  const client = useQueryClient()
  const thread = useInfiniteQuery({
    queryKey: commentsKey(caseId),
    queryFn: ({ pageParam }): Promise<Page<CrmRecord>> => call(() => cairn.GET('/api/v1/cases/{id}/comments', { params: { path: { id: caseId }, query: { limit: 50, cursor: pageParam } } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.has_more && last.next_cursor ? last.next_cursor : undefined),
  })
  const [body, setBody] = useState('')
  const [isPublic, setIsPublic] = useState(false)
  const add = useMutation({
    mutationFn: () => call(() => cairn.POST('/api/v1/cases/{id}/comments', { params: { path: { id: caseId } }, body: { body, is_public: isPublic } })),
    onSuccess: () => {
      setBody('')
      setIsPublic(false)
      void client.invalidateQueries({ queryKey: commentsKey(caseId) })
      void client.invalidateQueries({ queryKey: ['timeline', 'case', caseId] })
    },
  })
  const comments = thread.data?.pages.flatMap((p) => p.data) ?? []
  const submit = (e: FormEvent) => {
    e.preventDefault()
    // A body is required text: the API refuses one of whitespace or invisible characters (src/shared/required-text.ts).
    if (!isBlank(body)) add.mutate()
  }
  const bodyError = add.error instanceof ApiError ? add.error.fieldErrors.find((f) => f.field === 'body')?.message : undefined

  return (
    <Paper withBorder p="lg" radius="md" shadow="xs" component="section" aria-label="Comments">
      <Group justify="space-between" mb="md">
        <Title order={4}>Comments</Title>
        {comments.length > 0 && (
          <Text size="sm" c="dimmed">
            {comments.length}
            {thread.hasNextPage ? '+' : ''} {comments.length === 1 ? 'comment' : 'comments'}
          </Text>
        )}
      </Group>
      {thread.isPending ? (
        <Stack>
          <Skeleton height={44} />
          <Skeleton height={44} />
        </Stack>
      ) : thread.isError ? (
        <ErrorState title="Could not load comments" error={thread.error} onRetry={() => void thread.refetch()} />
      ) : comments.length === 0 ? (
        <Group gap="xs" c="dimmed" py="sm">
          <IconMessageCircle size={18} />
          <Text size="sm">No comments yet. Start the thread below.</Text>
        </Group>
      ) : (
        <Stack gap="lg">
          {comments.map((c) => (
            <Comment key={c.id} comment={c} myId={me.data?.user?.id} myName={me.data?.user?.name} />
          ))}
          {thread.hasNextPage && (
            <Center>
              <Button variant="default" size="xs" onClick={() => void thread.fetchNextPage()} loading={thread.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </Stack>
      )}
      <form onSubmit={submit} style={{ marginTop: 24 }}>
        <Stack gap="xs">
          <Textarea
            label="Add a comment"
            placeholder="Write an update for the team or the customer"
            autosize
            minRows={3}
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            error={bodyError ?? (add.isError && !bodyError ? add.error.message : undefined)}
          />
          <Group justify="space-between">
            <Checkbox label="Visible to the customer (public)" checked={isPublic} onChange={(e) => setIsPublic(e.currentTarget.checked)} />
            <Button type="submit" loading={add.isPending} disabled={isBlank(body)}>
              Add comment
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  )
}
