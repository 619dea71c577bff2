/**
 * Typed text as a CSV cell: quoted (RFC 4180) when it holds a comma, a quote or a line break, and
 * prefixed with ' when it starts like a formula (= + - @ tab CR), which a spreadsheet then shows
 * as text instead of running it.
 */
export function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
