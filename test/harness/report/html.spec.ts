import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { writeReport } from '../../../harness/report/reporters/write-report.ts'
import { HOSTILE_TOOL, divergent, sampleReport } from '../../support/report-entries.ts'

/**
 * Opens `report.html` in headless Chromium and checks the DOM the browser
 * built from it, not the text we wrote.
 */

const CHROMIUM = '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn(`report-html.spec: ${CHROMIUM} not found, skipping the browser check (apt-get install -y chromium)`)

/** A start tag of the serialised DOM: its name and decoded attributes. */
interface Tag {
  name: string
  attributes: Record<string, string>
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00A0', '#39': "'" }
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, body: string) => {
    if (named[body] !== undefined) return named[body]
    if (body.startsWith('#x')) return String.fromCodePoint(Number.parseInt(body.slice(2), 16))
    if (body.startsWith('#')) return String.fromCodePoint(Number.parseInt(body.slice(1), 10))
    return match
  })
}

/** Every start tag in `html` (Chromium serialises attributes as name="value"). */
function startTags(html: string): Tag[] {
  return [...html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((match) => ({
    name: (match[1] ?? '').toLowerCase(),
    attributes: Object.fromEntries([...(match[2] ?? '').matchAll(/([^\s"'>/=]+)(?:="([^"]*)")?/g)]
      .map((attribute) => [attribute[1] ?? '', decodeEntities(attribute[2] ?? '')])),
  }))
}

/** The serialised DOM between the start tag matching `open` and the end of that table. */
function tableSection(dom: string, open: RegExp): string {
  const start = dom.search(open)
  if (start < 0) throw new Error(`no table matching ${open}`)
  return dom.slice(start, dom.indexOf('</table>', start))
}

const report: Report = sampleReport({
  complete: false,
  scenarios: [
    ...sampleReport().scenarios,
    { ...divergent, name: HOSTILE_TOOL, target: 'dsh', divergence: { ...divergent.divergence!, blame: ['alpha', HOSTILE_TOOL], swaps: { plugins: ['alpha', HOSTILE_TOOL], changed: [['alpha', HOSTILE_TOOL]] } } },
  ],
  summary: { scenarios: 6, passed: 1, failed: 4, skipped: 1, interleavings: 127, durationMs: 9321 },
})

describe.skipIf(!hasChromium)('report.html in headless Chromium', () => {
  let dir = ''
  let dom = ''

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadrace-html-'))
    const [file] = await writeReport(join(dir, 'out'), report, ['html'], { env: {} })
    const { stdout } = await promisify(execFile)(CHROMIUM, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', `--user-data-dir=${join(dir, 'profile')}`, '--dump-dom', pathToFileURL(file ?? '').href,
    ], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
    dom = stdout
  }, 180_000)

  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true })
  })

  it('renders one summary row per scenario, in order, with its result', () => {
    const rows = startTags(tableSection(dom, /<table id="summary"/)).filter((tag) => tag.name === 'tr' && tag.attributes['data-scenario'] !== undefined)
    expect(rows.map((row) => [row.attributes['data-scenario'], row.attributes['data-result']])).toEqual([
      ['default-order', 'passed'],
      ['registration-race', 'failed'],
      ['clock | `reads`', 'failed'],
      ['never-settles', 'failed'],
      ['acp-only', 'skipped'],
      [HOSTILE_TOOL, 'failed'],
    ])
    expect(dom).toMatch(/<p class="banner" role="alert" id="incomplete">Incomplete sweep/)
  })

  it('renders the swap matrix: symmetric, diagonal blank, changed pairs marked, blame highlighted', () => {
    const cells = startTags(tableSection(dom, /<table class="swap-matrix" data-scenario="registration-race"/)).filter((tag) => tag.name === 'td')
    const plugins = ['alpha', 'beta', 'gamma', 'delta']
    expect(cells.map((cell) => `${cell.attributes['data-a']}/${cell.attributes['data-b']}`)).toEqual(plugins.flatMap((a) => plugins.map((b) => `${a}/${b}`)))
    const changed = cells.filter((cell) => cell.attributes['data-changed'] === 'true').map((cell) => `${cell.attributes['data-a']}/${cell.attributes['data-b']}`)
    expect(changed.sort()).toEqual(['alpha/gamma', 'beta/gamma', 'gamma/alpha', 'gamma/beta'])
    expect(cells.every((cell) => ['true', 'false'].includes(cell.attributes['data-changed'] ?? ''))).toBe(true)
    expect(cells.filter((cell) => cell.attributes['data-a'] === cell.attributes['data-b']).every((cell) => cell.attributes.class === 'diagonal')).toBe(true)
    const blame = cells.filter((cell) => cell.attributes.class === 'blame').map((cell) => `${cell.attributes['data-a']}/${cell.attributes['data-b']}`)
    expect(blame.sort()).toEqual(['alpha/gamma', 'gamma/alpha'])
  })

  it('shows the injected tool name as text, never as an element', () => {
    expect(startTags(dom).filter((tag) => tag.name === 'img')).toEqual([])
    expect(dom.replace(/="[^"]*"/g, '=""')).not.toContain('<img')
    expect(dom).toContain('&lt;img src=x onerror=alert(1)&gt;')
    const hostile = startTags(tableSection(dom, /<table class="swap-matrix" data-scenario="(?:&lt;|<)img/)).filter((tag) => tag.name === 'td')
    expect(hostile.map((cell) => [cell.attributes['data-a'], cell.attributes['data-b'], cell.attributes['data-changed']])).toEqual([
      ['alpha', 'alpha', 'false'],
      ['alpha', HOSTILE_TOOL, 'true'],
      [HOSTILE_TOOL, 'alpha', 'true'],
      [HOSTILE_TOOL, HOSTILE_TOOL, 'false'],
    ])
  })
})
