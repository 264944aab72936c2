/**
 * Hostile tool names and descriptions, end to end: a real scenario file whose
 * race puts them into the divergence diff, the outputs' tool lists and the
 * problems, swept by the real bin; then every report format is read the way
 * its consumer reads it.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliRun } from '../support/cli.ts'
import { codeSpans, markdownBlocks, tableCells } from '../support/markdown.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'
import { descendants, parseStrictXml } from '../support/xml.ts'

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`escaping.spec: ${CHROMIUM} not found, skipping the browser check of report.html`)

/** Markup that would run script if a report let it through. */
const IMG = '<img src=x onerror=alert(1)>'
/** A table-cell and code-span breaker, with a character XML 1.0 cannot carry. */
const PIPE = 'a|b`c\u000B'
const IMG_DESCRIPTION = 'pipe | and ``` fence and `code`\nsecond line </code></pre><img src=y> ]]> -->'
const PIPE_DESCRIPTION = '| cell | breaker |\n```\nnot a fence end'

/** YAML double-quoted scalar of `text` (JSON strings are valid YAML). */
const quoted = (text: string) => JSON.stringify(text)

/** Two tool plugins in registration order: the race reorders the hostile tools, and the expectation fails on purpose. */
const HOSTILE = `name: hostile
app: none
variant: registration-order
plugins:
  - id: tool-a
    tools:
      - name: ${quoted(IMG)}
        description: ${quoted(IMG_DESCRIPTION)}
  - id: tool-b
    tools:
      - name: ${quoted(PIPE)}
        description: ${quoted(PIPE_DESCRIPTION)}
expect:
  outcome: completed
  tools: [${quoted(IMG)}, ${quoted('zz|`')}]
`

let dir: FixtureDir
let run: CliRun
let report: string

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('hostile.yml', HOSTILE)
  run = await runCli(['sweep', 'hostile.yml', '--workers', '1', '--report', 'out', '--goldens', 'goldens'], { cwd: dir.root })
  report = join(dir.root, 'out')
})

afterAll(removeFixtureDirs)

/** How a tool name reads once invisible characters are shown as `\uXXXX`. */
function shown(text: string): string {
  return text.replace(/\u000B/g, '\\u000B')
}

/** Inline Markdown text back to what it shows: backslash escapes and the entities the renderer uses. */
function markdownText(text: string): string {
  return text.replace(/\\(.)/g, '$1').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}

it('sweeps the scenario: it diverges and fails its expectation', () => {
  expect(run.stderr).toBe('')
  expect(run.code).toBe(1)
  expect(run.stdout).toContain('divergent')
})

describe('report.md', () => {
  let markdown = ''
  beforeAll(async () => {
    markdown = await readFile(join(report, 'report.md'), 'utf8')
  })

  it('keeps the first difference and the diff inside one fence each, hostile lines verbatim', () => {
    const { fences } = markdownBlocks(markdown)
    const diffs = fences.filter((fence) => fence.info === 'diff')
    expect(diffs).toHaveLength(2)
    expect(diffs[0]!.content).toBe(`header.tools[0].name, column 1:\n-  ${JSON.stringify(IMG)}\n+  ${JSON.stringify(`${PIPE}`)}\n`)
    const diff = diffs[1]!.content
    for (const tool of [IMG, PIPE]) {
      expect(diff.split('\n')).toContain(`-      "name": ${JSON.stringify(tool)}`)
      expect(diff.split('\n')).toContain(`+      "name": ${JSON.stringify(tool)}`)
    }
    // Descriptions that span lines are written out line by line, each line verbatim.
    for (const line of [...IMG_DESCRIPTION.split('\n'), ...PIPE_DESCRIPTION.split('\n')]) expect(diff).toContain(line)
  })

  it('has no live HTML outside code: only <br> tags', () => {
    const { lines } = markdownBlocks(markdown)
    for (const line of lines) {
      const { rest } = codeSpans(line)
      expect(rest, line).not.toMatch(/<(?!br>)/)
    }
    expect(lines.some((line) => line.includes('&lt;img src=x onerror=alert(1)&gt;'))).toBe(true)
  })

  it('keeps every table row to its header\'s cells, and shows the tool lists exactly', () => {
    const { lines } = markdownBlocks(markdown)
    const tables: string[][] = []
    lines.forEach((line, i) => {
      if (!line.startsWith('|')) return
      if (lines[i - 1]?.startsWith('|')) tables.at(-1)!.push(line)
      else tables.push([line])
    })
    // The summary, the system under test, and the outputs of the failed scenario.
    expect(tables.map(table => tableCells(table[0]!)[0])).toEqual(['Scenario', 'Package', 'Output'])
    for (const table of tables) {
      const width = tableCells(table[0]!).length
      for (const row of table) expect(tableCells(row), row).toHaveLength(width)
    }
    const outputs = tables[2]!
    expect(tableCells(outputs[0]!)).toEqual(['Output', 'Interleavings', 'Tools', 'Replay token'])
    const lists = outputs.slice(2).map((row) => markdownText(tableCells(row)[2]!))
    expect(lists.sort()).toEqual([`${IMG}, ${shown(PIPE)}`, `${shown(PIPE)}, ${IMG}`].sort())
  })

  it('shows the problems naming the hostile tools as text', () => {
    const problems = markdownBlocks(markdown).lines.filter((line) => line.startsWith('- expected tools'))
    expect(problems).toHaveLength(2)
    for (const line of problems) expect(markdownText(line)).toContain(`- expected tools [${IMG}, zz|\`], got [`)
  })
})

describe('junit.xml', () => {
  it('is well-formed and carries the hostile names as text', async () => {
    const root = parseStrictXml(await readFile(join(report, 'junit.xml'), 'utf8'))
    const [failure] = descendants(root, 'failure')
    expect(failure).toBeDefined()
    expect(failure!.attributes.message).toContain(`expected tools [${IMG}, zz|\`]`)
    expect(failure!.text.split('\n')).toContain(`-      "name": ${JSON.stringify(IMG)}`)
    expect(failure!.text).toContain(`${IMG}, ${shown(PIPE)}`)
  })
})

describe.skipIf(!hasChromium)('report.html in headless Chromium', () => {
  let dom = ''

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(CHROMIUM, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', `--user-data-dir=${join(dir.root, 'profile')}`, '--dump-dom', pathToFileURL(join(report, 'report.html')).href,
    ], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
    dom = stdout
  }, 180_000)

  it('builds no img element, and shows the name as text', () => {
    expect(dom).toContain('</html>')
    // Attribute values may hold a raw "<"; only markup outside them could be an element.
    const markup = dom.replace(/="[^"]*"/g, '=""')
    expect(markup).not.toMatch(/<img[\s>]/i)
    expect(dom).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(dom).toContain('&lt;/code&gt;&lt;/pre&gt;&lt;img src=y&gt;')
  })
})
