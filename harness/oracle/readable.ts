/**
 * Projection parts as a person reads them. A real system prompt is one JSON
 * string of many kilobytes; diffed as JSON it is two enormous lines. Here a
 * string that spans lines is written out line by line, so a unified diff
 * shows the lines that differ with their neighbours, and the first
 * difference is located by path, line and column.
 */

const INDENT = '  '
/** Lines of context around the first difference. */
export const CONTEXT_LINES = 3

function key(name: string): string {
  return JSON.stringify(name)
}

function render(value: unknown, indent: string, out: string[], prefix: string): void {
  if (typeof value === 'string' && value.includes('\n')) {
    out.push(`${prefix}|`)
    for (const line of value.split('\n')) out.push(`${indent}${INDENT}${line}`)
    return
  }
  if (Array.isArray(value) && value.length > 0) {
    out.push(`${prefix}[`)
    for (const item of value) render(item, indent + INDENT, out, `${indent}${INDENT}`)
    out.push(`${indent}]`)
    return
  }
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    out.push(`${prefix}{`)
    for (const [name, item] of Object.entries(value)) render(item, indent + INDENT, out, `${indent}${INDENT}${key(name)}: `)
    out.push(`${indent}}`)
    return
  }
  out.push(`${prefix}${JSON.stringify(value) ?? 'undefined'}`)
}

/**
 * `value` as indented text: JSON for scalars and empty containers, one line
 * per key or item, and a string that spans lines as `|` followed by its
 * lines indented one level deeper. Key order is kept.
 */
export function readable(value: unknown): string {
  const out: string[] = []
  render(value, '', out, '')
  return `${out.join('\n')}\n`
}

/** Where two values first differ: a path into them, and for strings the line and column. */
export interface FirstDifference {
  path: string
  /** 1-based, for a difference inside two strings. */
  line?: number
  column?: number
  /** A few lines of context: unchanged lines indented, the differing ones marked `-` (before) and `+` (after). */
  context: string
}

function pathOf(parent: string, segment: string | number): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`
  return /^[A-Za-z_$][\w$]*$/.test(segment) ? (parent === '' ? segment : `${parent}.${segment}`) : `${parent}[${JSON.stringify(segment)}]`
}

/** Longest line of context shown; a longer one (a paragraph) is cut, around `column` when given. */
export const CONTEXT_WIDTH = 160

function clipped(line: string, column: number | undefined): string {
  if (line.length <= CONTEXT_WIDTH) return line
  const start = column === undefined || column <= CONTEXT_WIDTH / 2 ? 0 : column - CONTEXT_WIDTH / 4
  const text = line.slice(start, start + CONTEXT_WIDTH)
  return `${start > 0 ? '…' : ''}${text}${start + CONTEXT_WIDTH < line.length ? '…' : ''}`
}

function numbered(lines: readonly string[], from: number, to: number, mark: string, column?: number): string[] {
  const out: string[] = []
  for (let i = from; i < to; i++) out.push(`${mark} ${String(i + 1).padStart(5)} | ${clipped(lines[i]!, column)}`)
  return out
}

/** The first differing column of two strings, and for texts of several lines the line, with context lines from both sides. */
function stringDifference(path: string, a: string, b: string): FirstDifference {
  if (!a.includes('\n') && !b.includes('\n')) {
    let column = 0
    while (column < a.length && column < b.length && a[column] === b[column]) column++
    return { path, column: column + 1, context: `-  ${JSON.stringify(a)}\n+  ${JSON.stringify(b)}` }
  }
  const left = a.split('\n')
  const right = b.split('\n')
  let line = 0
  while (line < left.length && line < right.length && left[line] === right[line]) line++
  const before = left[line] ?? ''
  const after = right[line] ?? ''
  let column = 0
  while (column < before.length && column < after.length && before[column] === after[column]) column++
  const start = Math.max(0, line - CONTEXT_LINES)
  const context = [
    ...numbered(left, start, line, ' '),
    ...numbered(left, line, Math.min(left.length, line + 1), '-', column),
    ...numbered(right, line, Math.min(right.length, line + 1), '+', column),
    ...numbered(right, line + 1, Math.min(right.length, line + 1 + CONTEXT_LINES), ' '),
  ]
  return { path, line: line + 1, column: column + 1, context: context.join('\n') }
}

function leafDifference(path: string, a: unknown, b: unknown): FirstDifference {
  return { path, context: [`-  ${JSON.stringify(a) ?? 'undefined'}`, `+  ${JSON.stringify(b) ?? 'undefined'}`].join('\n') }
}

/** Where `a` and `b` first differ, walking objects in `a`'s key order (then `b`'s extra keys) and arrays by index; undefined when equal. */
export function locateDifference(a: unknown, b: unknown, path = ''): FirstDifference | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined
  if (typeof a === 'string' && typeof b === 'string') return stringDifference(path || '(value)', a, b)
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = locateDifference(a[i], b[i], pathOf(path, i))
      if (found) return found
    }
  }
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
  if (isObject(a) && isObject(b)) {
    for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = locateDifference(a[name], b[name], pathOf(path, name))
      if (found) return found
    }
    // Same entries, another key order.
    return { path: path || '(value)', context: `-  keys ${Object.keys(a).join(', ')}\n+  keys ${Object.keys(b).join(', ')}` }
  }
  return leafDifference(path || '(value)', a, b)
}

/** `part.path, line L, column C:` and, below it, the context lines. */
export function describeDifference(part: string, difference: FirstDifference): string {
  const line = difference.line === undefined ? '' : `, line ${difference.line}`
  const where = difference.column === undefined ? line : `${line}, column ${difference.column}`
  const path = difference.path === '(value)' ? part : `${part}${difference.path.startsWith('[') ? '' : '.'}${difference.path}`
  return `${path}${where}:\n${difference.context}`
}
