import type { DifferenceKind, ProjectionDifference } from './target-diff-report.ts'
import { COMPARED_PARTS, type ComparedView } from './view.ts'

/** A path step: `.key` (or `["odd key"]`) and `[index]`. */
function step(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  const plain = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
  if (path === '') return plain
  return plain.startsWith('"') ? `${path}[${plain}]` : `${path}.${plain}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Where two JSON values differ: every differing leaf, every key or element only one side has, and every mapping whose keys are in another order. */
function walk(left: unknown, right: unknown, path: string, out: Omit<ProjectionDifference, 'token'>[]): void {
  if (JSON.stringify(left) === JSON.stringify(right)) return
  const push = (kind: DifferenceKind, a: unknown, b: unknown) => out.push({ path, kind, left: a, right: b })
  if (Array.isArray(left) && Array.isArray(right)) {
    for (let index = 0; index < Math.max(left.length, right.length); index++) {
      if (index >= left.length) out.push({ path: step(path, index), kind: 'missing', left: undefined, right: right[index] })
      else if (index >= right.length) out.push({ path: step(path, index), kind: 'missing', left: left[index], right: undefined })
      else walk(left[index], right[index], step(path, index), out)
    }
    return
  }
  if (isRecord(left) && isRecord(right)) {
    const leftKeys = Object.keys(left)
    const rightKeys = Object.keys(right)
    const shared = leftKeys.filter(key => Object.hasOwn(right, key))
    if (shared.join('\u0000') !== rightKeys.filter(key => Object.hasOwn(left, key)).join('\u0000')) push('key-order', leftKeys, rightKeys)
    for (const key of [...leftKeys, ...rightKeys.filter(key => !Object.hasOwn(left, key))]) {
      if (!Object.hasOwn(right, key)) out.push({ path: step(path, key), kind: 'missing', left: left[key], right: undefined })
      else if (!Object.hasOwn(left, key)) out.push({ path: step(path, key), kind: 'missing', left: undefined, right: right[key] })
      else walk(left[key], right[key], step(path, key), out)
    }
    return
  }
  push('value', left, right)
}

/**
 * Every difference between two compared views of one interleaving, part by
 * part (in `COMPARED_PARTS` order), each with its path in the view: e.g.
 * `header.tools[1].description` (value), `requests[1].messages[1]` (key
 * order), `eventTypes[9]` (missing on one side). Empty when they agree.
 */
export function viewDifferences(left: ComparedView, right: ComparedView): Omit<ProjectionDifference, 'token'>[] {
  const out: Omit<ProjectionDifference, 'token'>[] = []
  for (const part of COMPARED_PARTS) walk(left[part], right[part], part, out)
  return out
}
