import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { captured, inDir, PAIR, RACE, readReport } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

const exec = promisify(execFile)
const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url))

let dir: FixtureDir

/** Runs `loadrace sweep ARGS --report r --goldens g` in the fixture, in this process. */
async function sweep(args: readonly string[], env: Record<string, string> = {}) {
  const out = captured(env)
  const code = await inDir(dir.root, () => main(['sweep', ...args, '--report', 'r', '--goldens', 'g'], out.cli))
  return { code, stdout: out.stdout(), stderr: out.stderr(), report: code === 2 ? undefined : await readReport(join(dir.root, 'r')) }
}

const names = (report: Report | undefined) => report?.scenarios.map(scenario => scenario.name)

beforeAll(async () => {
  dir = await fixtureDir()
  // In path order: a-race fails (a race expected deterministic), b-pair and c-other pass.
  await dir.write('set/a-race.yml', RACE.replace('name: race', 'name: a-race').replace('  deterministic: false\n', ''))
  await dir.write('set/b-pair.yml', PAIR.replace('name: pair', 'name: b-pair'))
  await dir.write('set/c-other.yml', PAIR.replace('name: pair', 'name: c-other'))
})

afterAll(removeFixtureDirs)

describe('-t, --filter PATTERN', () => {
  it('sweeps only the scenarios whose name matches', async () => {
    const short = await sweep(['set', '-t', '^[bc]-', '--workers', '1'])
    expect(short.code).toBe(0)
    expect(names(short.report)).toEqual(['b-pair', 'c-other'])
    expect(short.stdout).not.toContain('a-race')
    const long = await sweep(['set', '--filter=other', '--workers', '1'])
    expect(names(long.report)).toEqual(['c-other'])
  })

  it('a pattern that matches nothing, or is no pattern, is bad input', async () => {
    const none = await sweep(['set', '-t', 'zzz'])
    expect(none.code).toBe(2)
    expect(none.stderr).toBe('loadrace sweep: --filter: no scenario name matches /zzz/ (names: a-race, b-pair, c-other)\n')
    const broken = await sweep(['set', '-t', '('])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toMatch(/^loadrace sweep: --filter: expected a regular expression, got "\(" \(.+\)\n$/)
  })
})

describe('--bail', () => {
  it('stops after the first failed scenario; the report says it is incomplete', async () => {
    const run = await sweep(['set', '--bail', '--workers', '1'])
    expect(run.code).toBe(1)
    expect(names(run.report)).toEqual(['a-race'])
    expect(run.report!.complete).toBe(false)
    expect(run.stdout).toContain('\n1 failed, 0 passed of 1 scenario · 2 interleavings · stopped at the first failure (--bail)\n')
    const all = await sweep(['set', '--workers', '1'])
    expect(names(all.report)).toEqual(['a-race', 'b-pair', 'c-other'])
  })

  it('a failure in the last scenario leaves the sweep complete', async () => {
    await dir.write('last/x-pair.yml', PAIR.replace('name: pair', 'name: x-pair'))
    await dir.write('last/y-race.yml', RACE.replace('name: race', 'name: y-race').replace('  deterministic: false\n', ''))
    const run = await sweep(['last', '--bail', '--workers', '1'])
    expect(run.code).toBe(1)
    expect(names(run.report)).toEqual(['x-pair', 'y-race'])
    expect(run.report!.complete).toBe(true)
    expect(run.stdout).not.toContain('stopped')
  })
})

describe('--reporter json', () => {
  it('prints report.json on stdout, and the scenario lines on stderr', async () => {
    const run = await sweep(['set', '--reporter', 'json', '--workers', '1'])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe(await readFile(join(dir.root, 'r', 'report.json'), 'utf8'))
    expect((JSON.parse(run.stdout) as Report).summary.failed).toBe(1)
    expect(run.stderr).toMatch(/^✗ {2}a-race/)
    expect(run.stderr).toContain('\n1 failed, 2 passed of 3 scenarios')
    expect((await sweep(['set', '--reporter', 'xml'])).stderr).toBe('loadrace sweep: --reporter: expected one of default, json, got "xml"\n')
  })
})

describe('--workers', () => {
  it('above the CPU count is capped, with a note', async () => {
    const run = await sweep(['set/b-pair.yml', '--workers', '9999'])
    expect(run.code).toBe(0)
    const cpus = availableParallelism()
    expect(run.stderr).toBe(`loadrace: --workers 9999 is more than the ${cpus} available CPU${cpus === 1 ? '' : 's'}; using ${cpus}\n`)
    expect(run.report!.options.workers).toBe(cpus)
  })
})

describe('npm run sweep -- FILE', () => {
  it('sweeps just FILE', async () => {
    const report = join(dir.root, 'npm-report')
    await exec('npm', ['run', '--silent', 'sweep', '--', join(dir.root, 'set', 'b-pair.yml'), '--workers', '1', '--report', report, '--goldens', join(dir.root, 'g')], {
      cwd: CHECKOUT,
      env: { ...process.env, CI: '' },
    })
    expect(names(await readReport(report))).toEqual(['b-pair'])
  })
})
