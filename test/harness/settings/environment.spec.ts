import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderJson } from '../../../harness/report/json.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { comparable, exists, listing, readReport, runCli } from '../../support/cli.ts'

/** A bundled scenario of six plugins (720 interleavings), swept here from another folder. */
const BUNDLED = resolve('scenarios/lexicographic-six.yml')

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

describe('the real command, set from the environment', () => {
  it('sweeps a bundled scenario with the strategy, budget and seed of its variables, as the same options would', async () => {
    const env = { LOADRACE_STRATEGY: 'random', LOADRACE_BUDGET: '3', LOADRACE_SEED: 'seven', LOADRACE_WORKERS: '1', LOADRACE_FORMAT: 'json', LOADRACE_REPORT: 'by-env', LOADRACE_GOLDENS: 'goldens-env' }
    const byEnv = await runCli(['sweep', BUNDLED], { cwd: dir.root, env })
    expect(byEnv.stderr).toBe('')
    expect(byEnv.code).toBe(0)
    expect(await listing(join(dir.root, 'by-env'))).toEqual(['report.json'])
    expect(await exists(join(dir.root, 'goldens-env', 'lexicographic-six.json'))).toBe(true)
    const report = await readReport(join(dir.root, 'by-env'))
    expect(report.options).toMatchObject({ strategy: 'random', budget: 3, seed: 'seven', workers: 1 })
    expect(report.scenarios[0]).toMatchObject({ name: 'lexicographic-six', strategy: 'random', explored: 3 })

    const byArgs = await runCli(['sweep', BUNDLED, '--strategy', 'random', '--budget', '3', '--seed', 'seven', '--workers', '1', '--format', 'json', '--report', 'by-args', '--goldens', 'goldens-args'], { cwd: dir.root })
    expect(byArgs.code).toBe(0)
    expect(renderJson(comparable(await readReport(join(dir.root, 'by-args'))))).toBe(renderJson(comparable(report)))

    // The command line beats the environment.
    const beaten = await runCli(['sweep', BUNDLED, '--budget', '2', '--report', 'beaten'], { cwd: dir.root, env })
    expect(beaten.code).toBe(0)
    const beatenReport = await readReport(join(dir.root, 'beaten'))
    expect(beatenReport.options).toMatchObject({ strategy: 'random', budget: 2, seed: 'seven' })
    expect(beatenReport.scenarios[0]!.explored).toBe(2)
  })

  it('refuses a bad variable with one line naming it and what is allowed, exit 2, and writes nothing', async () => {
    const bad = await runCli(['sweep', BUNDLED, '--report', 'bad'], { cwd: dir.root, env: { LOADRACE_BUDGET: 'many' } })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('loadrace sweep: LOADRACE_BUDGET: expected a whole number ≥ 1, got "many"\n')
    expect(bad.stdout).toBe('')
    expect(await exists(join(dir.root, 'bad'))).toBe(false)
    const strategy = await runCli(['sweep', BUNDLED, '--report', 'bad'], { cwd: dir.root, env: { LOADRACE_STRATEGY: 'everything' } })
    expect(strategy.code).toBe(2)
    expect(strategy.stderr).toBe('loadrace sweep: LOADRACE_STRATEGY: expected one of auto, exhaustive, random, pct, cover, applies, got "everything"\n')
  })

  it('names each option\'s variable in --help', async () => {
    const help = await runCli(['sweep', '--help'], { cwd: dir.root })
    expect(help.stdout).toMatch(/--budget N .*\(default: 5040\) \[LOADRACE_BUDGET\]/)
    expect(help.stdout).toMatch(/--seed S .*\[LOADRACE_SEED\]/)
    expect(help.stdout).toMatch(/-u, --update-goldens .*\[LOADRACE_UPDATE_GOLDENS\]/)
  })
})
