import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  escapeHtml,
  escapeMarkdown,
  escapeXmlAttribute,
  escapeXmlText,
  markdownCode,
  markdownFence,
  shellQuote,
  showInvisible,
} from '../../../harness/report/escape.ts'
import { renderHtml } from '../../../harness/report/html.ts'
import { renderJson, stripTimings } from '../../../harness/report/json.ts'
import { renderJunit } from '../../../harness/report/junit.ts'
import { renderMarkdown } from '../../../harness/report/markdown.ts'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { parseFormats } from '../../../harness/settings/formats.ts'
import { writeReport } from '../../../harness/report/reporters/write-report.ts'
import {
  DIVERGENCE_DIFF,
  HOSTILE_DESCRIPTION,
  HOSTILE_TOOL,
  divergent,
  passingReport,
  sampleReport,
} from '../../support/report-entries.ts'
import { codeSpans, markdownBlocks, tableCells } from '../../support/markdown.ts'
import { descendants, parseStrictXml } from '../../support/xml.ts'
import type { XmlElement } from '../../support/xml.ts'

/** Rebuilds every object with its keys in reverse order (arrays keep their order). */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reversedKeys(inner)]))
}

describe('escape helpers', () => {
  it('escapeHtml replaces markup characters and shows invisible ones', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
    expect(escapeHtml('a\u0000b\u001Fc\tok\n')).toBe('a\\u0000b\\u001Fc\tok\n')
  })

  it('escapeXmlText and escapeXmlAttribute round-trip through a strict XML reader', () => {
    const nasty = 'a<b>&c "d" \'e\'\tf\ng\r\nh \u0001 \uFFFF \uD800 \uD83D\uDE00 ]]> end'
    const element = parseStrictXml(`<r a="${escapeXmlAttribute(nasty)}" b='${escapeXmlAttribute(nasty)}'>${escapeXmlText(nasty)}</r>`)
    expect(element.attributes.a).toBe(showInvisible(nasty))
    expect(element.attributes.b).toBe(showInvisible(nasty))
    expect(element.text).toBe(showInvisible(nasty))
    expect(showInvisible(nasty)).toContain('\\u0001 \\uFFFF \\uD800 \uD83D\uDE00')
  })

  it('escapeXml* keep any string well-formed (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      const element = parseStrictXml(`<r v="${escapeXmlAttribute(text)}">${escapeXmlText(text)}</r>`)
      return element.attributes.v === showInvisible(text) && element.text === showInvisible(text)
    }))
  })

  it('escapeMarkdown neutralises table, code, emphasis, HTML and line breaks', () => {
    expect(escapeMarkdown('a|b `c` *d* _e_ [f](g) ~h~ \\i')).toBe('a\\|b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) \\~h\\~ \\\\i')
    expect(escapeMarkdown('<img src=x> & co')).toBe('&lt;img src=x&gt; &amp; co')
    expect(escapeMarkdown('one\ntwo\r\nthree')).toBe('one<br>two<br>three')
    expect(escapeMarkdown('# title')).toBe('\\# title')
    expect(escapeMarkdown('- item')).toBe('\\- item')
    expect(escapeMarkdown('1. item')).toBe('1\\. item')
    expect(escapeMarkdown('4.3 s')).toBe('4.3 s')
  })

  it('escapeMarkdown text is always exactly one table cell (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '|', '\\', '`', '\n', ' ', '<') }), (text) => {
      return tableCells(`| ${escapeMarkdown(text)} | x |`).length === 2
    }))
  })

  it('markdownCode picks a delimiter longer than any backtick run', () => {
    expect(markdownCode('plain')).toBe('`plain`')
    expect(markdownCode('a ` b')).toBe('``a ` b``')
    expect(markdownCode('``x')).toBe('``` ``x ```')
    expect(markdownCode('a|b', { inTable: true })).toBe('`a\\|b`')
    expect(markdownCode('line\nbreak')).toBe('`line break`')
  })

  it('markdownCode in a table stays one cell and decodes to its text (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '|', '\\', '`', ' '), minLength: 1 }), (text) => {
      const rendered = markdownCode(text, { inTable: true })
      const cells = tableCells(`| ${rendered} | x |`)
      if (cells.length !== 2) return false
      if (!rendered.startsWith('`')) return !text.includes('|') || text.includes('\\|')
      const { spans } = codeSpans((cells[0] ?? '').replace(/\\\|/g, '|'))
      return spans.length === 1 && spans[0] === text
    }))
  })

  it('markdownFence cannot be closed by its content (property)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '`', '\n', ' ', '~') }), (text) => {
      const { fences, lines } = markdownBlocks(`before\n${markdownFence(text, 'diff')}\nafter`)
      const expected = text.endsWith('\n') || text === '' ? text : `${text}\n`
      return fences.length === 1 && fences[0]?.content === (expected === '' ? '\n' : expected) &&
        lines.join('|') === 'before|after'
    }))
  })

  it('shellQuote survives a real shell', () => {
    for (const word of ["lr1:a,b'c", "it's", '$HOME `id` "x" \\ ;|&', '']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' })).toBe(word)
    }
  })
})

describe('renderJson', () => {
  it('is pretty JSON with a trailing newline that parses back to the report', () => {
    const report = sampleReport()
    const json = renderJson(report)
    expect(json.endsWith('}\n')).toBe(true)
    expect(json).toContain('\n  "version": "0.1.0",\n')
    expect(JSON.parse(json)).toEqual(report)
  })

  it('serialises identically however the report was constructed', () => {
    const report = sampleReport()
    const reordered = reversedKeys(report) as Report
    expect(Object.keys(reordered)[0]).toBe('summary')
    expect(renderJson(reordered)).toBe(renderJson(report))
    const parsed = JSON.parse(renderJson(reordered)) as Record<string, unknown>
    expect(Object.keys(parsed)).toEqual(['tool', 'report', 'version', 'complete', 'options', 'scenarios', 'summary'])
    const scenarios = parsed.scenarios as Record<string, unknown>[]
    expect(Object.keys(scenarios[1] ?? {})).toEqual([
      'name', 'file', 'variant', 'target', 'plugins', 'space', 'discovered', 'planned', 'explored', 'strategy', 'guarantee', 'verdict',
      'passed', 'outcome', 'distinctOutputs', 'outputs', 'divergence', 'hosts', 'golden', 'expected', 'problems', 'goldenDiff',
      'durationMs',
    ])
    expect(Object.keys(scenarios[4] ?? {})).toContain('skipped')
    // A skipped scenario neither passed nor failed: it has a verdict of its own and no `passed`.
    expect(scenarios[4]).toMatchObject({ verdict: 'skipped' })
    expect(Object.keys(scenarios[4] ?? {})).not.toContain('passed')
    expect(Object.keys(parsed.summary as object)).toEqual(['scenarios', 'passed', 'failed', 'skipped', 'interleavings', 'durationMs'])
    expect(Object.keys((scenarios[1]?.divergence ?? {}) as object)).toEqual(['part', 'kind', 'blame', 'tokens', 'diff', 'firstDifference', 'moved', 'sections', 'swaps'])
  })

  it('stripTimings zeroes every duration without touching the input', () => {
    const report = sampleReport()
    const stripped = stripTimings(report)
    expect(stripped.summary.durationMs).toBe(0)
    expect(stripped.scenarios.map((s) => s.durationMs)).toEqual([0, 0, 0, 0, 0])
    expect(report.summary.durationMs).toBe(5000)
    expect(report.scenarios[1]?.durationMs).toBe(4321)
    const slower = sampleReport({
      scenarios: report.scenarios.map((s) => ({ ...s, durationMs: s.durationMs * 3 + 1 })),
      summary: { ...report.summary, durationMs: 99_999 },
    })
    expect(renderJson(slower)).not.toBe(renderJson(report))
    expect(renderJson(stripTimings(slower))).toBe(renderJson(stripped))
  })
})

describe('renderMarkdown', () => {
  const markdown = renderMarkdown(sampleReport())
  const { fences, lines } = markdownBlocks(markdown)

  it('opens with a title carrying the counts', () => {
    expect(lines[0]).toBe('# ❌ loadrace: 3 failed, 1 passed, 1 skipped of 5 scenarios')
    expect(renderMarkdown(passingReport()).split('\n')[0]).toBe('# ✅ loadrace: 1 passed of 1 scenario')
  })

  it('has one seven-cell summary row per scenario', () => {
    const header = lines.findIndex((line) => line.startsWith('| Scenario |'))
    const rows = lines.slice(header + 2, header + 7)
    expect(lines[header + 7]).toBe('')
    expect(rows.map((row) => tableCells(row).length)).toEqual([7, 7, 7, 7, 7])
    expect(tableCells(rows[0] ?? '')).toEqual([
      '**default-order**<br>reference · default', 'deterministic (completed)', 'completed, deterministic',
      'exhaustive', '24 / 24', '✅ match', '✅ passed',
    ])
    expect(tableCells(rows[1] ?? '').slice(1)).toEqual([
      'divergent (completed)', 'completed, deterministic', 't-way:2', '37 / 20922789888000', '❌ mismatch', '❌ failed',
    ])
    expect(tableCells(rows[2] ?? '')[0]).toBe('**clock \\| \\`reads\\`**<br>dsh · default')
    expect(tableCells(rows[4] ?? '').at(-1)).toBe('⏭️ skipped')
    expect(markdown).toContain('- acp-only (dsh · default): the dsh target has no acp-agent app')
  })

  it('explains each guarantee in use', () => {
    expect(markdown).toContain('- **t-way:2**: every relative order of any 2 operations')
    expect(markdown).toContain('- **exhaustive**: every interleaving of the discovered space ran')
  })

  it('has a section per failed scenario only', () => {
    const sections = lines.filter((line) => line.startsWith('## '))
    expect(sections).toEqual([
      '## ❌ registration-race · reference · default',
      '## ❌ clock \\| \\`reads\\` · dsh · default',
      '## ❌ never-settles · reference · default',
    ])
  })

  it('gives the blame pair, part, kind, both tokens, replay commands and both diffs', () => {
    expect(markdown).toContain('**Blame: alpha ⇄ gamma**. Swapping alpha and gamma changes the request')
    expect(markdown).toContain('(part `request`, kind `order`)')
    expect(markdown).toContain('before the swap `lr1:registration-race:alpha,gamma,beta,delta`')
    expect(markdown).toContain('after it `lr1:registration-race:gamma,alpha,beta,delta`')
    expect(fences.map((fence) => fence.info)).toEqual(['sh', 'diff', 'diff', 'diff', 'diff', 'sh', 'sh'])
    expect(fences[0]?.content).toBe([
      '# before the swap',
      "npx loadrace replay 'lr1:registration-race:alpha,gamma,beta,delta' --scenarios scenarios/registration-race.yml",
      '# after the swap',
      "npx loadrace replay 'lr1:registration-race:gamma,alpha,beta,delta' --scenarios scenarios/registration-race.yml",
      '',
    ].join('\n'))
    expect(fences[1]?.content).toBe(`${divergent.divergence!.firstDifference}\n`)
    expect(fences[2]?.content).toBe(divergent.divergence!.sections)
    expect(fences[3]?.content).toBe(showInvisible(DIVERGENCE_DIFF))
    expect(fences[4]?.content).toBe(divergent.goldenDiff)
    expect(fences[5]?.content).toContain("npx loadrace replay 'lr1:clock:a' --scenarios 'scenarios/clock | `reads`.yml'\n# output 2")
    expect(markdown).toContain(`Moved: tool alpha (alpha), tool ${HOSTILE_TOOL.replaceAll('<', '&lt;').replaceAll('>', '&gt;')} (gamma).`)
  })

  it('keeps every scenario string inert outside code', () => {
    const inline = lines.map((line) => codeSpans(line).rest).join('\n')
    expect(inline.replaceAll('<br>', '')).not.toMatch(/[<>]/)
    expect(inline).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(markdown).toContain('\\| cells, \\`\\`\\` fences \\`code\\` and<br>lines &amp; &lt;b&gt;tags&lt;/b&gt; \\\\u0001')
    expect(markdown).not.toContain('\u0001')
  })

  it('says prominently when the sweep is incomplete', () => {
    const incomplete = renderMarkdown(sampleReport({ complete: false })).split('\n')
    expect(incomplete.slice(2, 4)).toEqual([
      '> [!WARNING]',
      expect.stringMatching(/^> \*\*Incomplete sweep: the run was interrupted/) as unknown as string,
    ])
    expect(markdown).not.toContain('Incomplete sweep')
    const green = renderMarkdown({ ...passingReport(), complete: false })
    expect(green.split('\n')[0]).toBe('# ⚠️ loadrace: 1 passed of 1 scenario')
  })

  it('cuts very long diffs and says where the rest is', () => {
    const diff = Array.from({ length: 1000 }, (_, i) => `+line ${i}`).join('\n')
    const long = sampleReport({ scenarios: [{ ...divergent, divergence: { ...divergent.divergence!, diff } }] })
    const rendered = markdownBlocks(renderMarkdown(long))
    const diffFence = rendered.fences.find((fence) => fence.content.startsWith('+line 0'))
    expect(diffFence?.content.split('\n').length).toBe(301)
    expect(rendered.lines).toContain('_700 more diff lines omitted; the whole diff is in report.json._')
  })
})

describe('renderJunit', () => {
  const xml = renderJunit(sampleReport())
  const root = parseStrictXml(xml)
  const testcases = descendants(root, 'testcase')
  const property = (testcase: XmlElement | undefined, name: string): string | undefined =>
    descendants(testcase ?? root, 'property').find((p) => p.attributes.name === name)?.attributes.value

  it('is well-formed XML with one loadrace suite and correct counts', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
    const suites = descendants(root, 'testsuite')
    expect(suites).toHaveLength(1)
    expect(suites[0]?.attributes).toMatchObject({ name: 'loadrace', tests: '5', failures: '3', skipped: '1', errors: '0', time: '5.000' })
  })

  it('has one testcase per scenario with classname, name and time in seconds', () => {
    expect(testcases.map((t) => [t.attributes.classname, t.attributes.name, t.attributes.time])).toEqual([
      ['loadrace.reference.default', 'default-order', '0.125'],
      ['loadrace.reference.default', 'registration-race', '4.321'],
      ['loadrace.dsh.default', 'clock | `reads`', '0.125'],
      ['loadrace.reference.default', 'never-settles', '0.125'],
      ['loadrace.dsh.default', 'acp-only', '0.000'],
    ])
    expect(testcases.map((t) => t.children.map((c) => c.name).join(','))).toEqual([
      'properties', 'properties,failure', 'properties,failure', 'properties,failure', 'properties,skipped',
    ])
  })

  it('carries verdict, guarantee, coverage and every replay token as properties', () => {
    const race = testcases[1]
    expect(property(race, 'verdict')).toBe('divergent')
    expect(property(race, 'guarantee')).toBe('t-way:2')
    expect(property(race, 'explored')).toBe('37')
    expect(property(race, 'space')).toBe('20922789888000')
    expect(property(race, 'replay.before-swap')).toBe('lr1:registration-race:alpha,gamma,beta,delta')
    expect(property(race, 'replay.after-swap')).toBe('lr1:registration-race:gamma,alpha,beta,delta')
    expect(property(race, 'replay.output-2')).toBe("lr1:registration-race:gamma,alpha,beta,delta'quote")
    expect(property(testcases[2], 'replay.output-1')).toBe('lr1:clock:a')
    expect(property(undefined, 'complete')).toBe('true')
  })

  it('explains a failure: problems in the message; blame, part/kind, replay and diffs in the body', () => {
    const failure = testcases[1]?.children.find((c) => c.name === 'failure')
    expect(failure?.attributes.type).toBe('divergent')
    expect(failure?.attributes.message).toBe(`expected deterministic bytes, got 2 distinct outputs; tool description: ${showInvisible(HOSTILE_DESCRIPTION)}`)
    const body = failure?.text ?? ''
    expect(body).toContain('Blame: alpha <-> gamma. Swapping alpha and gamma changes the request')
    expect(body).toContain('Part: request; kind: order.')
    expect(body).toContain("npx loadrace replay 'lr1:registration-race:alpha,gamma,beta,delta'")
    expect(body).toContain("npx loadrace replay 'lr1:registration-race:gamma,alpha,beta,delta'")
    expect(body).toContain(showInvisible(DIVERGENCE_DIFF).trimEnd())
    expect(body).toContain(`Golden diff (golden -> this run):\n${divergent.goldenDiff ?? ''}`)
    expect(body).toContain(`bbbbbbbbbbbb × 17: ${HOSTILE_TOOL}, alpha`)
    expect(xml).not.toContain('<img')
  })

  it('marks skipped scenarios with their reason', () => {
    expect(testcases[4]?.children[1]?.attributes.message).toBe('the dsh target has no acp-agent app')
  })

  it('flags an incomplete sweep', () => {
    const incomplete = parseStrictXml(renderJunit(sampleReport({ complete: false })))
    expect(descendants(incomplete, 'property').find((p) => p.attributes.name === 'complete')?.attributes.value).toBe('false')
    expect(descendants(incomplete, 'system-err')[0]?.text).toMatch(/^Incomplete sweep/)
    expect(descendants(root, 'system-err')).toHaveLength(0)
  })

  it('the strict reader rejects malformed XML', () => {
    for (const bad of [
      '<a><b></a></b>', '<a x="1" x="2"/>', '<a>&foo;</a>', '<a>\u0001</a>', '<a>&#1;</a>', '<a x="<"/>',
      '<a/><b/>', '<a>]]></a>', '<a>x & y</a>', '<a', 'text<a/>',
    ]) {
      expect(() => parseStrictXml(bad), bad).toThrow()
    }
  })
})

describe('renderHtml (as text)', () => {
  const html = renderHtml(sampleReport())

  it('is self-contained: no script, no external resource, a policy that forbids them', () => {
    expect(html).not.toMatch(/<script|<link|<iframe|<object|@import|url\(|https?:/i)
    expect([...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual(['#scenario-2', '#scenario-3', '#scenario-4'])
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`)
  })

  it('escapes every scenario string', () => {
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('data-scenario="clock | `reads`"')
    expect(renderHtml(sampleReport({ scenarios: [{ ...divergent, name: '"><b x=\'' }] }))).toContain('data-scenario="&quot;&gt;&lt;b x=&#39;"')
  })
})

describe('writeReport', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadrace-report-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('writes every requested format and nothing else, creating the directory', async () => {
    const report = sampleReport()
    const out = join(dir, 'nested', 'reports')
    const written = await writeReport(out, report, ['json', 'md', 'junit', 'html'], { env: {} })
    expect(written).toEqual(['report.json', 'report.md', 'junit.xml', 'report.html'].map((file) => join(out, file)))
    expect((await readdir(out)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe(renderJson(report))
    expect(await readFile(join(out, 'report.md'), 'utf8')).toBe(renderMarkdown(report))
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toBe(renderJunit(report))
    expect(await readFile(join(out, 'report.html'), 'utf8')).toBe(renderHtml(report))
    await writeReport(out, passingReport(), ['json'], { env: {} })
    expect((await readdir(out)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe(renderJson(passingReport()))
  })

  it('writes nothing when any format fails to render', async () => {
    await writeFile(join(dir, 'report.json'), 'old\n')
    const broken = sampleReport({ scenarios: [{ ...divergent, outputs: null as unknown as [] }] })
    await expect(writeReport(dir, broken, ['md', 'json'], { env: {} })).rejects.toThrow()
    expect(await readdir(dir)).toEqual(['report.json'])
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe('old\n')
  })

  it('removes its temp files when a write fails', async () => {
    await mkdir(join(dir, 'report.html'))
    await writeFile(join(dir, 'report.html', 'keep'), 'x')
    await expect(writeReport(dir, sampleReport(), ['json', 'html'], { env: {} })).rejects.toThrow()
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('never lets a reader see a partial file', async () => {
    const small = passingReport()
    const large = sampleReport({
      scenarios: Array.from({ length: 400 }, (_, i) => ({ ...divergent, name: `race-${i}`, divergence: { ...divergent.divergence!, diff: DIVERGENCE_DIFF.repeat(40) } })),
    })
    await writeReport(dir, small, ['json'], { env: {} })
    const expected = new Set([renderJson(small), renderJson(large)])
    let done = false
    const reads: string[] = []
    const reader = (async () => {
      while (!done) reads.push(await readFile(join(dir, 'report.json'), 'utf8'))
    })()
    for (let round = 0; round < 3; round += 1) {
      await writeReport(dir, large, ['json'], { env: {} })
      await writeReport(dir, small, ['json'], { env: {} })
    }
    done = true
    await reader
    expect(reads.length).toBeGreaterThan(0)
    expect(reads.filter((content) => !expected.has(content)).length).toBe(0)
  })

  it('appends the Markdown to GITHUB_STEP_SUMMARY when md is written', async () => {
    const summary = join(dir, 'step-summary.md')
    await writeFile(summary, '# earlier step\n')
    const report = sampleReport()
    await writeReport(join(dir, 'out'), report, ['json', 'md'], { env: { GITHUB_STEP_SUMMARY: summary } })
    expect(await readFile(summary, 'utf8')).toBe(`# earlier step\n\n${renderMarkdown(report)}`)
    await writeReport(join(dir, 'out'), report, ['json'], { env: { GITHUB_STEP_SUMMARY: summary } })
    expect(await readFile(summary, 'utf8')).toBe(`# earlier step\n\n${renderMarkdown(report)}`)
    const fresh = join(dir, 'fresh-summary.md')
    await writeReport(join(dir, 'out'), report, ['md'], { env: { GITHUB_STEP_SUMMARY: fresh } })
    expect(await readFile(fresh, 'utf8')).toBe(renderMarkdown(report))
  })
})

describe('parseFormats', () => {
  it('accepts a comma list, trimming blanks and dropping repeats', () => {
    expect(parseFormats('json')).toEqual(['json'])
    expect(parseFormats(' md , junit,html,md ')).toEqual(['md', 'junit', 'html'])
  })

  it('names the bad value and the allowed ones', () => {
    expect(() => parseFormats('json,xml')).toThrow('unknown report format "xml"; allowed: json, md, junit, html')
    expect(() => parseFormats('json,,md')).toThrow('unknown report format ""; allowed: json, md, junit, html')
    expect(() => parseFormats(' ')).toThrow('no report format given; allowed: json, md, junit, html')
  })
})
