import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'

/**
 * One run's per-test results, read from what the test command wrote: vitest's
 * JSON report, or a JUnit file (`node --test`'s, or the one `--junit`
 * names). A test is named by its file (relative to the directory the
 * command ran in) and its full name, as the suite itself names it.
 */

/** What one test did in one run. */
export type TestStatus = 'passed' | 'failed' | 'skipped'

export interface TestResult {
  /** The test's file, relative to the command's directory (`/`-separated); empty when the results do not say. */
  readonly file: string
  /** The suite's full name of the test (its describe blocks and title). */
  readonly name: string
  readonly status: TestStatus
  /** The suite's own failure message (and diff), for a failed test. */
  readonly message?: string
}

/** A test's key in every map of results: `file › name`. */
export function testKey(test: { file: string, name: string }): string {
  return test.file === '' ? test.name : `${test.file} › ${test.name}`
}

function relativeFile(file: string, cwd: string): string {
  return (isAbsolute(file) ? relative(cwd, file) : file).split('\\').join('/')
}

const ANSI = /\u001b\[[0-9;]*m/g

/** The failure text with terminal colours taken out. */
function plain(text: string): string {
  return text.replace(ANSI, '')
}

interface VitestAssertion {
  fullName?: string
  title?: string
  ancestorTitles?: string[]
  status?: string
  failureMessages?: string[]
}

interface VitestFile {
  name?: string
  status?: string
  message?: string
  assertionResults?: VitestAssertion[]
}

function vitestStatus(status: string | undefined): TestStatus {
  if (status === 'passed') return 'passed'
  if (status === 'failed') return 'failed'
  return 'skipped'
}

/** Reads vitest's JSON report; a file that failed before any test ran (a broken import, a failing `beforeAll`) is one failed test named `(file)`. */
export function readVitestJson(text: string, cwd: string): TestResult[] {
  const report = JSON.parse(text) as { testResults?: VitestFile[] }
  const results: TestResult[] = []
  for (const file of report.testResults ?? []) {
    const path = relativeFile(file.name ?? '', cwd)
    const assertions = file.assertionResults ?? []
    for (const assertion of assertions) {
      const name = assertion.fullName ?? [...assertion.ancestorTitles ?? [], assertion.title ?? ''].join(' ')
      const status = vitestStatus(assertion.status)
      const message = assertion.failureMessages?.map(plain).join('\n')
      results.push({ file: path, name, status, ...status === 'failed' && message ? { message } : {} })
    }
    if (file.status === 'failed' && !assertions.some(assertion => assertion.status === 'failed')) {
      results.push({ file: path, name: '(file)', status: 'failed', message: plain(file.message ?? 'the file failed before its tests ran') })
    }
  }
  return results
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return match ? unescapeXml(match[1] as string) : undefined
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name: string, decimal?: string, hex?: string) => {
    if (decimal !== undefined) return String.fromCodePoint(Number(decimal))
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16))
    return ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name] as string
  })
}

/** Reads a JUnit XML file: every `<testcase>`, failed when it holds a `<failure>` or `<error>`, skipped when it holds `<skipped>`. */
export function readJunit(text: string, cwd: string): TestResult[] {
  const results: TestResult[] = []
  const testcase = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g
  for (const match of text.matchAll(testcase)) {
    const tag = match[1] as string
    const body = match[3] ?? ''
    const name = attribute(tag, 'name') ?? ''
    const file = attribute(tag, 'file') ?? attribute(tag, 'classname') ?? ''
    const failure = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body)
    if (failure) {
      const message = [attribute(failure[2] as string, 'message'), failure[3] === undefined ? undefined : unescapeXml(failure[3].replace(/^<!\[CDATA\[|\]\]>$/g, ''))]
        .filter(part => part !== undefined && part !== '').join('\n')
      results.push({ file: relativeFile(file, cwd), name, status: 'failed', ...message ? { message } : {} })
    } else {
      results.push({ file: relativeFile(file, cwd), name, status: /<skipped\b/.test(body) ? 'skipped' : 'passed' })
    }
  }
  return results
}

/** The results file of a run, read; undefined when the command wrote none. */
export function readResultFile(file: string, kind: 'vitest' | 'junit', cwd: string): TestResult[] | undefined {
  if (!existsSync(file)) return undefined
  const text = readFileSync(file, 'utf8')
  return kind === 'vitest' ? readVitestJson(text, cwd) : readJunit(text, cwd)
}

/**
 * The suite's own account of one failed test in what a vitest run printed:
 * the block its default reporter writes under ` FAIL  <file> > <names>` —
 * the error, the diff and the code frame — up to the next separator line.
 * Undefined when the output has none for the test (another runner, or it passed).
 */
export function vitestFailureBlock(output: string, test: { file: string, name: string }): string | undefined {
  const lines = plain(output).split('\n')
  const prefix = ` FAIL  ${test.file} > `
  const start = lines.findIndex(line => line.startsWith(prefix) && line.slice(prefix.length).split(' > ').join(' ') === test.name)
  if (start < 0) return undefined
  const end = lines.findIndex((line, index) => index > start && line.startsWith('⎯'))
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n').trim()
}
