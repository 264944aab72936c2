/**
 * Safe YAML reading for scenario files: the core schema only, no tags beyond
 * it, no merge keys, no duplicate or complex keys, and a small alias budget.
 */
import { LineCounter, isAlias, isMap, isNode, isScalar, isSeq, parseDocument } from 'yaml'
import type { Document, Scalar } from 'yaml'
import { isRecord } from './record.ts'
import type { FieldPath, Problem } from './problem.ts'

/** At most this many alias expansions per file (YAML anchors stay usable, alias bombs do not). */
export const MAX_ALIAS_COUNT = 16

/** Deepest nesting of lists and mappings a file may use (tool parameters included): deeper input cannot overflow a checker's stack. */
export const MAX_DEPTH = 64

const CORE_TAG_PREFIX = 'tag:yaml.org,2002:'
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => CORE_TAG_PREFIX + name))
const MERGE_KEY = '<<'
/** How V8 words a stack overflow, which the parser reports as an error of a deeply nested flow collection. */
const STACK_OVERFLOW = /maximum call stack size exceeded/i

/** A parsed scenario document: the AST (for positions) and its plain value, a mapping. */
export interface ParsedScenarioYaml {
  doc: Document.Parsed
  lines: LineCounter
  value: Record<string, unknown>
}

/** The text of a scalar mapping key as it appears on the parsed object (`~` → `""`). */
export function keyText(key: Scalar): string {
  return key.value === null || key.value === undefined ? '' : String(key.value)
}

/** A tag as the user wrote it: `!!binary` for the YAML namespace, `!local` as is. */
function showTag(tag: string): string {
  return tag.startsWith(CORE_TAG_PREFIX) ? `!!${tag.slice(CORE_TAG_PREFIX.length)}` : tag
}

function where(lines: LineCounter, offset: number): string {
  const { line, col } = lines.linePos(offset)
  return `at line ${line}, column ${col}`
}

/** Only the line: a node's range starts after its tag, so a column would point past the tag. */
function onLine(lines: LineCounter, offset: number): string {
  return `at line ${lines.linePos(offset).line}`
}

function fileProblem(problem: string, allowed: string): Problem {
  return { path: [], problem, allowed, anchor: 'value' }
}

const NESTING_ALLOWED = `lists and mappings nested at most ${MAX_DEPTH} levels deep`

function tooDeep(where: string): Problem {
  return fileProblem(`nesting too deep ${where}`, NESTING_ALLOWED)
}

function describeRoot(node: unknown): string {
  if (node === null || node === undefined) return 'an empty document'
  if (isSeq(node)) return 'a list'
  if (isScalar(node)) return `a scalar ${JSON.stringify(node.toJSON())}`
  return 'something else'
}

/**
 * Walks the AST in document order and returns the first construct the safe
 * subset does not allow: nesting deeper than {@link MAX_DEPTH}, a tag outside
 * the core schema, a merge key, a complex or duplicate key, or an alias
 * without an anchor.
 */
function firstUnsafe(doc: Document.Parsed, lines: LineCounter): Problem | undefined {
  const visit = (node: unknown, path: FieldPath): Problem | undefined => {
    if (!isNode(node)) return undefined
    const offset = node.range?.[0] ?? 0
    if (isAlias(node)) {
      if (node.resolve(doc)) return undefined
      return {
        path, anchor: 'value',
        problem: `alias "*${node.source}" ${where(lines, offset)} has no anchor before it`,
        allowed: 'an alias must follow its &anchor',
      }
    }
    if (path.length > MAX_DEPTH) return tooDeep(onLine(lines, offset))
    if (node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      return {
        path, anchor: 'value',
        problem: `unsupported tag "${showTag(node.tag)}" ${onLine(lines, offset)}`,
        allowed: 'plain YAML values: core-schema tags only, no custom tags',
      }
    }
    if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const found = visit(item, [...path, index])
        if (found) return found
      }
      return undefined
    }
    if (!isMap(node)) return undefined
    const seen = new Set<string>()
    for (const pair of node.items) {
      const key = pair.key
      if (!isScalar(key)) {
        return {
          path, anchor: 'value', at: path,
          problem: `complex mapping key ${where(lines, (isNode(key) ? key.range?.[0] : undefined) ?? offset)}`,
          allowed: 'plain scalar keys',
        }
      }
      const name = keyText(key)
      const keyPath = [...path, name]
      const tagged = visit(key, keyPath)
      if (tagged) return tagged
      if (name === MERGE_KEY) {
        return {
          path: keyPath, anchor: 'key',
          problem: `merge key "<<" ${where(lines, key.range?.[0] ?? offset)} is not supported`,
          allowed: 'write the keys out; aliases of whole values are allowed',
        }
      }
      if (seen.has(name)) {
        return {
          path: keyPath, anchor: 'key',
          problem: `duplicate key ${JSON.stringify(name)} ${where(lines, key.range?.[0] ?? offset)}`,
          allowed: 'each key at most once per mapping',
        }
      }
      seen.add(name)
      const found = visit(pair.value, keyPath)
      if (found) return found
    }
    return undefined
  }
  return visit(doc.contents, [])
}

/**
 * Parses scenario text safely. Returns the document and its value, a
 * mapping, or the first problem: invalid YAML, nesting too deep, an unsafe
 * construct, too many aliases, or a document that is not a mapping.
 */
export function parseScenarioYaml(text: string): ParsedScenarioYaml | Problem {
  const lines = new LineCounter()
  let doc: Document.Parsed
  try {
    doc = parseDocument(text, {
      schema: 'core',
      version: '1.2',
      merge: false,
      uniqueKeys: false,
      strict: true,
      prettyErrors: false,
      lineCounter: lines,
    })
  } catch (error) {
    // The parser recurses per nesting level; its own stack is the limit it hits first.
    if (error instanceof RangeError) return tooDeep('for the YAML parser')
    throw error
  }
  const [error] = doc.errors
  if (error) {
    if (STACK_OVERFLOW.test(error.message)) return tooDeep(where(lines, error.pos[0]))
    const message = error.code === 'MULTIPLE_DOCS' ? 'the file holds more than one YAML document' : error.message
    return fileProblem(`invalid YAML ${where(lines, error.pos[0])}: ${message}`, 'a YAML mapping')
  }
  const unsafe = firstUnsafe(doc, lines)
  if (unsafe) return unsafe
  if (!isMap(doc.contents)) {
    return fileProblem(`expected a YAML mapping, got ${describeRoot(doc.contents)}`, 'a YAML mapping of scenario keys')
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch {
    return fileProblem('too many alias expansions', `at most ${MAX_ALIAS_COUNT} per file`)
  }
  if (!isRecord(value)) return fileProblem('expected a YAML mapping', 'a YAML mapping of scenario keys')
  return { doc, lines, value }
}

/** Narrows the result of `parseScenarioYaml`. */
export function isParsed(result: ParsedScenarioYaml | Problem): result is ParsedScenarioYaml {
  return 'doc' in result
}
