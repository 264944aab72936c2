/**
 * The stable text of a module that fails to import. The real loader logs a
 * failed import and boots the rest, so the text is part of every
 * interleaving's load errors: it must not depend on the machine, the run or
 * the module pipeline that happened to load it.
 *
 * A parse failure keeps where it is. Node's own ESM syntax errors carry no
 * file or position on the error object (only in what Node prints for an
 * uncaught error), and transpilers word theirs differently, so the position
 * comes from one authority: the module is imported once more in a child
 * Node process with tsx's loader, as the `loadrace` command imports it, and
 * the file, line and column are read from what that process prints. A parse
 * failure stops the module graph before anything in it runs, so that import
 * has no side effects.
 */
import { execFile } from 'node:child_process'
import { relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { showValue } from './show.ts'
import { resolvePackageFrom } from '../system/resolve.ts'

const MAX_MESSAGE = 200
const CHILD_TIMEOUT_MS = 20_000

/** Where a parse failure is, with the parser's message. */
interface ParseFailure {
  file: string
  line: number
  /** 1-based; absent when the parser points at no column (an unexpected end of input). */
  column?: number
  message: string
}

/** The first non-empty line of `text`, short enough for one report line. */
function firstLine(text: string): string {
  const first = text.split(/\r\n|\r|\n/).find(line => line.trim() !== '') ?? text
  return first.length <= MAX_MESSAGE ? first : `${first.slice(0, MAX_MESSAGE - 1)}…`
}

/** `Name: message` of a thrown value, first line only. */
export function describeThrown(error: unknown): string {
  return firstLine(error instanceof Error ? `${error.name}: ${error.message}` : showValue(error))
}

/**
 * Whether an import failed while parsing (before any module of the graph
 * ran): esbuild's and vite's transform failures, or a V8 SyntaxError thrown
 * from Node's module compiler rather than from running code.
 */
function isParseFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (error.name === 'TransformError' || /^(Transform|Parse) fail/.test(error.message)) return true
  if (error.name !== 'SyntaxError') return false
  const frames = (error.stack ?? '').split('\n').filter(line => /^\s+at /.test(line))
  return frames.every(frame => frame.includes('node:internal'))
}

const ESBUILD_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.*)$/m
/** Node's report of an uncaught parse error: `file:LINE`, the source line, a caret under the column (absent at the end of input), then the error. */
const V8_ERROR = /^(file:\/\/\S+|\/\S+):(\d+)\r?\n(?:[^\n]*\r?\n(?:( *)\^[^\n]*\r?\n)?)?(?:[^\n]*\r?\n)*?(SyntaxError: [^\n]*)/m

/** Reads a parse failure out of what a Node process printed for it. */
export function parseFailureIn(output: string): ParseFailure | undefined {
  const esbuild = ESBUILD_ERROR.exec(output)
  if (esbuild) {
    // esbuild counts columns from 0.
    return { file: esbuild[1]!, line: Number(esbuild[2]), column: Number(esbuild[3]) + 1, message: `SyntaxError: ${esbuild[4]}` }
  }
  const v8 = V8_ERROR.exec(output)
  if (v8) {
    const file = v8[1]!.startsWith('file:') ? fileURLToPath(v8[1]!) : v8[1]!
    return { file, line: Number(v8[2]), ...v8[3] === undefined ? {} : { column: v8[3].length + 1 }, message: v8[4]! }
  }
  return undefined
}

/** Imports `path` in a child Node process with tsx's hooks (both, as `typescript-loader.js` registers them) and returns what it printed on stderr. */
function importInChild(path: string): Promise<string> {
  const tsx = resolvePackageFrom('tsx', fileURLToPath(import.meta.url))
  const loader = tsx === undefined ? [] : ['--import', pathToFileURL(tsx).href]
  const args = [...loader, '--input-type=module', '-e', 'await import(process.argv[1])', pathToFileURL(path).href]
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: CHILD_TIMEOUT_MS, encoding: 'utf8' }, (_error, _stdout, stderr) => resolve(stderr))
  })
}

/**
 * The load-error text of `specifier` (resolved to `path`) failing to import:
 * `importing "<specifier>" failed: <Name>: <message>`, and for a parse failure
 * ` at <file>:<line>:<column>` (the column when the parser names one) with
 * the file relative to `dir`.
 */
export async function importFailureText(specifier: string, path: string, dir: string, error: unknown): Promise<string> {
  const head = `importing ${JSON.stringify(specifier)} failed`
  if (isParseFailure(error)) {
    const located = parseFailureIn(await importInChild(path))
    if (located) {
      const column = located.column === undefined ? '' : `:${located.column}`
      return `${head}: ${firstLine(located.message)} at ${relative(dir, located.file) || located.file}:${located.line}${column}`
    }
  }
  return `${head}: ${describeThrown(error)}`
}
