// The mark and wordmark of the header: the same SVG and name as the server-rendered pages
// (src/shared/brand.ts), so sign-in and the app carry one brand.
import { Group, Text } from '@mantine/core'
import { BRAND_NAME, markSvg } from '../../../src/web-contracts.ts'

// Our own constant markup, never data: safe to set as HTML.
const MARK = { __html: markSvg(30) }

export function BrandMark() {
  return (
    <Group gap={8} wrap="nowrap">
      <span style={{ display: 'inline-flex' }} dangerouslySetInnerHTML={MARK} />
      <Text fw={700} size="lg">
        {BRAND_NAME}
      </Text>
    </Group>
  )
}
