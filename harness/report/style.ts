/**
 * How terminal text is styled: ANSI colours on a terminal that wants them,
 * plain text anywhere else (the text itself never depends on the style).
 */

/** Functions that wrap text in one style each. */
export interface Style {
  passed(text: string): string
  failed(text: string): string
  skipped(text: string): string
  /** Secondary text: details, hunk headers. */
  dim(text: string): string
  bold(text: string): string
  /** A `+` line of a diff. */
  added(text: string): string
  /** A `-` line of a diff. */
  removed(text: string): string
}

const same = (text: string) => text

/** No styling: the text as it is. */
export const PLAIN: Style = { passed: same, failed: same, skipped: same, dim: same, bold: same, added: same, removed: same }

/** Wraps in an SGR sequence and resets only what it set. */
function sgr(on: number, off: number): (text: string) => string {
  return text => (text === '' ? text : `\x1b[${on}m${text}\x1b[${off}m`)
}

/** The 16 basic ANSI colours, which every colour terminal shows. */
export const ANSI: Style = {
  passed: sgr(32, 39),
  failed: sgr(31, 39),
  skipped: sgr(33, 39),
  dim: sgr(2, 22),
  bold: sgr(1, 22),
  added: sgr(32, 39),
  removed: sgr(31, 39),
}

/** Colours every line of a unified diff by its first character. */
export function styledDiffLine(line: string, style: Style): string {
  if (line.startsWith('+++') || line.startsWith('---')) return style.bold(line)
  if (line.startsWith('+')) return style.added(line)
  if (line.startsWith('-')) return style.removed(line)
  if (line.startsWith('@@')) return style.dim(line)
  return line
}
