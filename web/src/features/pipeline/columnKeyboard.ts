// Keyboard dragging on the board: with a card lifted (Space), Left and Right move it to the
// previous or next stage column rather than a few pixels; Up and Down do nothing (a column is not
// ordered by hand). Space drops, Escape cancels (the sensor's defaults).
import type { KeyboardCoordinateGetter } from '@dnd-kit/core'

export const columnCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  if (event.code !== 'ArrowLeft' && event.code !== 'ArrowRight') return undefined
  const { collisionRect, droppableRects } = context
  if (!collisionRect) return undefined
  event.preventDefault()
  const centers = [...droppableRects.values()].map((r) => r.left + r.width / 2).sort((a, b) => a - b)
  if (centers.length === 0) return undefined
  const here = collisionRect.left + collisionRect.width / 2
  // The column the card is over now: the nearest center.
  let index = 0
  for (let i = 1; i < centers.length; i++) if (Math.abs(centers[i]! - here) < Math.abs(centers[index]! - here)) index = i
  const target = centers[index + (event.code === 'ArrowRight' ? 1 : -1)]
  if (target === undefined) return undefined
  return { x: currentCoordinates.x + (target - here), y: currentCoordinates.y }
}
