/**
 * Cairn's brand in one place: the name, the mark (three stacked stones), the colours and the type.
 * The web app's Mantine theme and header (web/src/theme.ts, web/src/shell/BrandMark.tsx) and the
 * server-rendered pages (sign-in, first run, consent, errors: orgs/html.ts) both read it, so the
 * two sides cannot drift apart. Colours are Mantine's teal and cyan, the app's primary colour.
 */

export const BRAND_NAME = 'Cairn'

export const FONT_FAMILY = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'

/** Mantine's palette values the pages use, named for their role (the app gets them from its theme). */
export const BRAND_COLORS = {
  primary: '#12b886', // teal.6: buttons, focus, links
  primaryHover: '#0ca678', // teal.7
  primaryLight: '#e6fcf5', // teal.0
  markFrom: '#12b886', // the mark's gradient, teal.6 to cyan.6 at 135°
  markTo: '#15aabf',
  text: '#212529', // Mantine's black
  dimmed: '#868e96', // gray.6
  border: '#ced4da', // gray.4: inputs
  surface: '#f8f9fa', // gray.0: the app's page background
  error: '#fa5252', // red.6
} as const

/** The mark's strokes on a 24-unit grid (the shape of Tabler's "stack-2" icon, MIT). */
export const MARK_PATHS = ['M12 4l-8 4l8 4l8 -4l-8 -4', 'M4 12l8 4l8 -4', 'M4 16l8 4l8 -4'] as const

/** The mark as SVG text: white strokes on a rounded teal-to-cyan square, `size` pixels wide. */
export function markSvg(size: number): string {
  const strokes = MARK_PATHS.map((d) => `<path d="${d}"/>`).join('')
  return (
    `<svg width="${size}" height="${size}" viewBox="0 0 30 30" aria-hidden="true" focusable="false">` +
    `<defs><linearGradient id="cairn-mark" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${BRAND_COLORS.markFrom}"/><stop offset="1" stop-color="${BRAND_COLORS.markTo}"/></linearGradient></defs>` +
    `<rect width="30" height="30" rx="8" fill="url(#cairn-mark)"/>` +
    `<g transform="translate(6 6) scale(0.75)" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${strokes}</g></svg>`
  )
}
