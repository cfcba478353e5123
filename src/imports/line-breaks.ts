/**
 * The line breaks that end a CSV row outside quotes, every kind in any mix (docs/imports.md). CRLF
 * comes first: csv-parse tries them in order, and a CR followed by LF is one break, not a row and a
 * blank row. Its own file, free of Node imports, so the browser's preview (web/, csvHeader.ts) reads
 * rows as the server does.
 */
export const LINE_BREAKS = ['\r\n', '\n', '\r'] as const
