import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Cli } from '../../../harness/cli/command.ts'
import { main } from '../../../harness/cli/main.ts'
import type { TargetDiffReport } from '../../../harness/diff-targets/target-diff-report.ts'
import type { MatrixReport } from '../../../harness/matrix/matrix-report.ts'
import { exists, listing, MALFORMED, PAIR, RACE, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

/** A `Cli` that keeps what the command writes. */
function captured(): { cli: Cli, stdout: () => string, stderr: () => string } {
  let stdout = ''
  let stderr = ''
  return {
    cli: { stdout: { write: (text: string) => { stdout += text } }, stderr: { write: (text: string) => { stderr += text } }, env: {} },
    stdout: () => stdout,
    stderr: () => stderr,
  }
}

async function run(args: readonly string[]) {
  const out = captured()
  const code = await main(args, out.cli)
  return { code, stdout: out.stdout(), stderr: out.stderr() }
}

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T
}

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('pair/pair.yml', PAIR)
  await dir.write('race/race.yml', RACE)
  await dir.write('bad/broken.yml', MALFORMED)
})

afterAll(removeFixtureDirs)

describe('loadrace matrix', () => {
  it('--help names the options and says why the default budget is enough', async () => {
    const result = await run(['matrix', '--help'])
    expect(result.code).toBe(0)
    for (const option of ['--budget N', '--seed S', '--strategy NAME', '--variants LIST', '--format LIST', '--report DIR']) expect(result.stdout).toContain(option)
    expect(result.stdout).toContain('(default: 48)')
    expect(result.stdout).toContain('cover(3)')
    expect(result.stdout).toContain('(default: reports/matrix)')
  })

  it.each([
    [['--variants', 'canonical,nope'], '--variants: unknown variant "nope"; allowed: canonical,'],
    [['--budget', '0'], '--budget: expected a whole number ≥ 1, got "0"'],
    [['--format', 'html'], '--format: unknown report format "html"; allowed: json, md'],
    [['--variant', 'canonical'], 'unknown option --variant'],
  ])('exits 2 on %j and writes nothing', async (options, message) => {
    const report = join(dir.root, 'unwritten')
    const result = await run(['matrix', join(dir.root, 'pair'), '--report', report, ...options])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(await exists(report)).toBe(false)
  })

  it('exits 2 on a malformed scenario file', async () => {
    const result = await run(['matrix', join(dir.root, 'bad'), '--report', join(dir.root, 'unwritten')])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('broken.yml')
  })

  it('exits 0 when every cell meets its expectation, printing and writing the table', async () => {
    const report = join(dir.root, 'matrix-ok')
    const result = await run(['matrix', join(dir.root, 'pair'), '--variants', 'stream-normalize,registration-order', '--workers', '1', '--report', report])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^scenario +registration-order +stream-normalize$/m)
    expect(result.stdout).toMatch(/^pair +div·header \(div·header\) +div·header \(div·header\)$/m)
    expect(result.stdout).toContain('2 of 2 cells match their expectation')
    expect(await listing(report)).toEqual(['matrix.json', 'matrix.md'])
    const json = await readJson<MatrixReport>(join(report, 'matrix.json'))
    expect(json.cells.map(cell => [cell.variant, cell.verdict, cell.expected.verdict, cell.match])).toEqual([
      ['registration-order', 'divergent', 'divergent', true],
      ['stream-normalize', 'divergent', 'divergent', true],
    ])
    expect(json.cells[1]).toMatchObject({ part: 'header', requests: 'identical', golden: 'none' })
    expect(await readFile(join(report, 'matrix.md'), 'utf8')).toContain('| `pair` | div·header (div·header) | div·header (div·header) |')
  }, 60_000)

  it('exits 1 when a cell contradicts its rule, naming the problem and the replay', async () => {
    const report = join(dir.root, 'matrix-bad')
    // One interleaving cannot show the race the rules expect of registration-order.
    const result = await run(['matrix', join(dir.root, 'pair'), '--variants', 'registration-order', '--budget', '1', '--workers', '1', '--report', report, '--format', 'json'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^pair +det \(div·header\) ✗$/m)
    expect(result.stdout).toContain('✗ registration-order on pair:')
    expect(result.stdout).toContain('verdict deterministic, expected divergent (racing)')
    expect(result.stdout).toContain("replay: npx loadrace replay 'pair@registration-order:")
    expect(await listing(report)).toEqual(['matrix.json'])
  }, 60_000)

  it('runs through the bin with worker processes', async () => {
    const report = join(dir.root, 'matrix-bin')
    const result = await runCli(['matrix', 'pair', '--variants', 'canonical,registration-order', '--workers', '2', '--report', report], { cwd: dir.root })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^pair +det \(det\) +div·header \(div·header\)$/m)
    expect(await listing(report)).toEqual(['matrix.json', 'matrix.md'])
  }, 120_000)
})

describe('loadrace diff-targets', () => {
  it('--help says what is compared', async () => {
    const result = await run(['diff-targets', '--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('the request-header fold (tool names, descriptions, parameters, key order), every dispatched request')
    expect(result.stdout).toContain('Normalised (declared differences): identity text at header.system, requests[*].system; model name at')
    expect(result.stdout).toContain('(default: reports/diff-targets)')
  })

  it('exits 2 on bad input', async () => {
    expect((await run(['diff-targets', join(dir.root, 'bad')])).code).toBe(2)
    expect((await run(['diff-targets', '--format', 'junit'])).code).toBe(2)
  })

  it('exits 0 when the targets agree, listing the skipped pairs', async () => {
    const report = join(dir.root, 'diff')
    const result = await run(['diff-targets', join(dir.root, 'pair'), join(dir.root, 'race'), '--workers', '1', '--report', report])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^pair +deterministic +deterministic +1 +same$/m)
    expect(result.stdout).toContain('race (dsh): the published packages implement only the canonical policy')
    expect(result.stdout).toContain('0 of 1 compared scenario differ · 1 skipped')
    expect(await listing(report)).toEqual(['diff-targets.json', 'diff-targets.md'])
    const json = await readJson<TargetDiffReport>(join(report, 'diff-targets.json'))
    expect(json.compared.map(comparison => [comparison.scenario, comparison.differences])).toEqual([['pair', []]])
    expect(json.skipped.map(pair => [pair.scenario, pair.target])).toEqual([['race', 'dsh']])
  }, 60_000)
})
