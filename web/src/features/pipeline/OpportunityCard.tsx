// A card on the pipeline board: the opportunity's name (a link), account, amount and close date.
// The whole card is the drag handle (mouse, touch, or focus and Space); the name stays a link,
// since a drag only starts after a few pixels of travel.
import { useDraggable } from '@dnd-kit/core'
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core'
import { IconCalendar } from '@tabler/icons-react'
import type { DragEvent, KeyboardEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { opportunityKind } from '../../../../src/web-contracts.ts'
import { formatDate, humanize, recordTitle, type CrmRecord } from '../../kinds.ts'
import { ReferenceLink } from '../records/ReferenceLink.tsx'
import { formatMoney } from './stageTotals.ts'
import { OwnerAvatar } from '../owners/OwnerAvatar.tsx'

export function CardContent({ card, overlay = false }: { card: CrmRecord; overlay?: boolean }) {
  const title = recordTitle(opportunityKind, card)
  return (
    <Stack gap={6}>
      {overlay ? (
        <Text size="sm" fw={600} lineClamp={2}>
          {title}
        </Text>
      ) : (
        <Anchor component={Link} to={`/${opportunityKind.path}/${card.id}`} size="sm" fw={600} lineClamp={2} c="var(--mantine-color-text)">
          {title}
        </Anchor>
      )}
      {typeof card.account_id === 'string' && !overlay && (
        <div>
          <ReferenceLink kindName="account" id={card.account_id} />
        </div>
      )}
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {card.amount != null ? formatMoney(Number(card.amount), typeof card.currency === 'string' ? card.currency : null) : ''}
        </Text>
        <Group gap={6} wrap="nowrap">
          {typeof card.close_date === 'string' && (
            <Group gap={4} c="dimmed" wrap="nowrap">
              <IconCalendar size={13} />
              <Text size="xs">{formatDate(card.close_date)}</Text>
            </Group>
          )}
          {!overlay && <OwnerAvatar ownerId={typeof card.owner_id === 'string' ? card.owner_id : null} />}
        </Group>
      </Group>
    </Stack>
  )
}

export function OpportunityCard({ card, stage, moving }: { card: CrmRecord; stage: string; moving: boolean }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: card.id, data: { card, stage } })
  const navigate = useNavigate()
  // Space lifts the card (the drag sensor's key); Enter, as on any button, opens it.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !isDragging && e.target === e.currentTarget) navigate(`/${opportunityKind.path}/${card.id}`)
    else listeners?.onKeyDown?.(e)
  }
  return (
    <Paper
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onKeyDown={onKeyDown}
      aria-label={`${recordTitle(opportunityKind, card)}, ${humanize(stage)}`}
      data-card={card.id}
      // Links inside would start the browser's own drag of a URL, which ends the pointer drag.
      onDragStart={(e: DragEvent) => e.preventDefault()}
      withBorder
      radius="md"
      p="sm"
      shadow="xs"
      style={{ cursor: 'grab', opacity: isDragging ? 0.35 : moving ? 0.7 : 1, touchAction: 'none', outlineOffset: 2 }}
    >
      <CardContent card={card} />
    </Paper>
  )
}
