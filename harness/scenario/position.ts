/** Locates problems in the YAML source so the first one in document order wins. */
import { isAlias, isMap, isScalar, isSeq } from 'yaml'
import type { Document, Node, Pair, YAMLMap } from 'yaml'
import { keyText } from './yaml.ts'
import type { Problem } from './problem.ts'

/** Each mapping's first pair per key, built once per mapping: a file with many bad keys stays linear. */
export type PairIndex = WeakMap<YAMLMap, Map<string, Pair>>

function pairOf(map: YAMLMap, key: string, index: PairIndex): Pair | undefined {
  let pairs = index.get(map)
  if (!pairs) {
    pairs = new Map()
    for (const item of map.items) {
      if (!isScalar(item.key)) continue
      const text = keyText(item.key)
      if (!pairs.has(text)) pairs.set(text, item)
    }
    index.set(map, pairs)
  }
  return pairs.get(key)
}

function deref(doc: Document.Parsed, node: unknown): Node | undefined {
  if (isAlias(node)) return node.resolve(doc)
  return isScalar(node) || isMap(node) || isSeq(node) ? node : undefined
}

/**
 * The source offset that orders a problem: the start of the key or value its
 * path names, or the end of that node. A path that runs out of the document
 * (a missing key) falls back to the deepest node found.
 */
export function problemOffset(doc: Document.Parsed, problem: Problem, index: PairIndex = new WeakMap()): number {
  let node = deref(doc, doc.contents)
  let key: Node | undefined
  for (const segment of problem.at ?? problem.path) {
    if (!node) break
    let next: unknown
    if (isMap(node)) {
      const pair = pairOf(node, String(segment), index)
      if (!pair) break
      key = pair.key as Node
      next = pair.value
    } else if (isSeq(node) && typeof segment === 'number') {
      key = undefined
      next = node.items[segment]
    } else {
      break
    }
    const child = deref(doc, next)
    if (!child) return key?.range?.[0] ?? node.range?.[0] ?? 0
    node = child
  }
  if (!node) return 0
  const range = node.range ?? [0, 0, 0]
  if (problem.anchor === 'end') return range[1]
  if (problem.anchor === 'key' && key) return key.range?.[0] ?? range[0]
  return range[0]
}

/** The problem that comes first in the document; ties keep discovery order. */
export function firstInDocument(doc: Document.Parsed, problems: readonly Problem[]): Problem | undefined {
  let best: Problem | undefined
  let bestOffset = Infinity
  const index: PairIndex = new WeakMap()
  for (const problem of problems) {
    const offset = problemOffset(doc, problem, index)
    if (offset < bestOffset) {
      best = problem
      bestOffset = offset
    }
  }
  return best
}
