/** Compact one-line renderings of values and field paths for error messages. */
import type { FieldPath } from './problem.ts'

const MAX_LENGTH = 60
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/

function showKey(key: string): string {
  return PLAIN_KEY.test(key) ? key : JSON.stringify(key)
}

function showNumber(value: number): string {
  if (Number.isNaN(value)) return '.nan'
  if (value === Infinity) return '.inf'
  if (value === -Infinity) return '-.inf'
  return String(value)
}

function render(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return showNumber(value)
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (Array.isArray(value)) return `[${value.map(render).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([key, inner]) => `${showKey(key)}: ${render(inner)}`)
    return entries.length === 0 ? '{}' : `{${entries.join(', ')}}`
  }
  return typeof value
}

/** Renders a parsed YAML value on one line (strings quoted, `.inf`/`.nan` as YAML spells them), cut at 60 characters. */
export function showValue(value: unknown): string {
  const text = render(value)
  return text.length <= MAX_LENGTH ? text : `${text.slice(0, MAX_LENGTH - 1)}…`
}

/** Formats a path as `key.sub[index]` (odd keys quoted: `config["a b"]`); the empty path is `(file)`. */
export function formatPath(path: FieldPath): string {
  let text = ''
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`
    else if (PLAIN_KEY.test(segment)) text += text === '' ? segment : `.${segment}`
    else text += `[${JSON.stringify(segment)}]`
  }
  return text === '' ? '(file)' : text
}
