/**
 * Scenario YAML is read with a safe schema: no language tags, no code runs,
 * and hostile shapes (alias bombs, deep nesting, huge mappings) are refused
 * with one line instead of hanging or overflowing the stack. Cases the loader
 * specs already cover (`!!js/function`, `!thing`, the small alias bomb) are
 * not repeated here.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import { MAX_DEPTH } from '../../harness/scenario/yaml.ts'
import { captured, exists } from '../support/cli.ts'
import { fixtureDir, minimal, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'

let dir: FixtureDir
let files = 0

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

/** Sweeps `text` as a scenario file in this process; checks exit 2, one line, nothing written; returns the line after the file name. */
async function rejected(text: string): Promise<string> {
  const file = await dir.write(`case-${files++}.yml`, text)
  const report = join(dir.root, 'never')
  const out = captured()
  expect(await main(['sweep', file, '--report', report, '--goldens', join(dir.root, 'goldens')], out.cli)).toBe(2)
  const stderr = out.stderr()
  expect(stderr.split('\n')).toHaveLength(2)
  expect(stderr).not.toMatch(/^ {4}at /m)
  expect(stderr.startsWith(`${file}: `)).toBe(true)
  expect(out.stdout()).toBe('')
  expect(await exists(report)).toBe(false)
  return stderr.slice(file.length + 2, -1)
}

const SAFE_SCHEMA = 'plain YAML values: core-schema tags only, no custom tags'

describe('language and custom tags', () => {
  it.each([
    ['!!js/regexp', 'description: !!js/regexp /^(a+)+$/\n', 'description'],
    ['!!js/undefined', 'description: !!js/undefined ""\n', 'description'],
    ['!!python/object:os.system', 'description: !!python/object:os.system { cmd: ls }\n', 'description'],
    ['!!python/object/apply:os.system', 'description: !!python/object/apply:os.system [ls]\n', 'description'],
    ['!custom', 'plugins:\n  - id: a\n    tools: [!custom x]\n', 'plugins[0].tools[0]'],
  ])('%s is refused with one line naming the tag', async (tag, text, path) => {
    const line = text.split('\n').findIndex((source) => source.includes(tag)) + 1
    expect(await rejected(`${text}expect: { outcome: completed }\n`)).toBe(`${path}: unsupported tag "${tag}" at line ${line} (${SAFE_SCHEMA})`)
  })

  it('runs none of the code a tagged value names', async () => {
    const marker = join(dir.root, 'executed')
    const write = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`
    await rejected(minimal(`description: !!js/function "function () { ${write} }"\n`))
    await rejected(minimal(`description: !!python/object/apply:subprocess.call [[touch, ${JSON.stringify(marker)}]]\n`))
    expect(await exists(marker)).toBe(false)
  })
})

describe('hostile shapes', () => {
  it('refuses a billion-laughs bomb (nine levels of nine aliases) without expanding it', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array.from({ length: 9 }, () => `*l${i}`).join(', ')}]\n`)
    const bomb = `l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${levels.join('')}${minimal()}`
    expect(await rejected(bomb)).toBe('(file): too many alias expansions (at most 16 per file)')
  })

  it.each([
    ['block lists', `plugins:\n${Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i + 1)}-\n`).join('')}`],
    ['flow lists', `plugins: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`],
    ['flow mappings', `plugins: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`],
    ['tool parameters', `plugins:\n  - id: a\n    tools:\n      - name: x\n        parameters: ${'{a: '.repeat(MAX_DEPTH)}1${'}'.repeat(MAX_DEPTH)}\n`],
  ])('refuses %s nested too deep with one line, not a stack overflow', async (_shape, text) => {
    expect(await rejected(`${text}expect: { outcome: completed }\n`)).toMatch(
      new RegExp(`^\\(file\\): nesting too deep .+ \\(lists and mappings nested at most ${MAX_DEPTH} levels deep\\)$`),
    )
  })

  it('still accepts tool parameters nested well below the limit', async () => {
    const depth = MAX_DEPTH - 10
    const text = `plugins:\n  - id: a\n    tools:\n      - name: x\n        parameters: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\nexpect: { outcome: completed }\n`
    await expect(loadScenario(await dir.write('nested.yml', text))).resolves.toMatchObject({ plugins: [{ id: 'a' }] })
  })

  it('names the first of 100 000 unknown keys (the lookup of each key\'s position stays linear)', async () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}: ${i}\n`).join('')
    expect(await rejected(`${keys}${minimal()}`)).toMatch(/^k0: unknown key "k0" \(allowed keys: name, /)
  }, 30_000)
})
