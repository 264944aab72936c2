/**
 * Faulty plugins cannot hang or crash a sweep: every fault class ends each
 * interleaving the same way (a load error with stable text, or stuck with a
 * replay token that reproduces it), a busy hang ends at the per-interleaving
 * timeout, the sweep moves on, and no leaked callback reaches a later
 * interleaving.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import type { Projection } from '../../harness/projection/projection.ts'
import { parseToken } from '../../harness/token.ts'
import { captured, inDir, readReport, runCli } from '../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'
import { BUSY_MODULE, busyScenario, LEAK_PROBE_MODULE, LEAK_ROUTES, leakScenario, SPIN_MODULE, withTwoTools } from '../support/faulty-plugins.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  for (const file of await readdir('scenarios/faults')) await dir.write(join('faults', file), await readFile(join('scenarios/faults', file), 'utf8'))
  await dir.write('plugins/busy.mjs', BUSY_MODULE)
  await dir.write('plugins/spin.mjs', SPIN_MODULE)
  await dir.write('spin.yml', busyScenario('spin', './plugins/spin.mjs', 'timeout: 10000\n').replace('id: busy', 'id: spin'))
  await dir.write('plugins/leak-probe.mjs', LEAK_PROBE_MODULE)
  await dir.write('busy.yml', busyScenario('busy', './plugins/busy.mjs', 'timeout: 300\n'))
  await dir.write('multi/a-stuck.yml', busyScenario('a-stuck', '../plugins/busy.mjs'))
  await dir.write('multi/b-pair.yml', withTwoTools('b-pair', '', '  outcome: completed\n  tools: [alpha, beta]\n'))
  for (const route of LEAK_ROUTES) await dir.write(`leaks/leak-${route}.yml`, leakScenario(route))
})

afterAll(removeFixtureDirs)

/** What `loadrace replay TOKEN --json` prints. */
interface Replayed {
  token: string
  hash: string
  schedule: string[]
  projection: Projection
}

/** Runs `loadrace replay TOKEN --json …` in this process, from the fixture folder. */
async function replay(token: string, ...options: string[]): Promise<Replayed> {
  const out = captured()
  const code = await inDir(dir.root, () => main(['replay', token, '--json', ...options], out.cli))
  expect(out.stderr()).toBe('')
  expect(code).toBe(0)
  return JSON.parse(out.stdout()) as Replayed
}

/** How each bundled fault scenario must end, in every interleaving. */
const FAULT_ENDINGS: Record<string, { verdict: string, outcome: string, load?: string[], stuck?: string }> = {
  'import-rejects': { verdict: 'deterministic', outcome: 'load-error', load: ['plugin "tool-broken" failed to import'] },
  'apply-throws': { verdict: 'deterministic', outcome: 'load-error', load: ['plugin "tool-broken" failed to apply'] },
  'apply-hangs': { verdict: 'stuck', outcome: 'stuck', stuck: 'no-progress' },
  'import-hangs': { verdict: 'stuck', outcome: 'stuck', stuck: 'no-progress' },
  'leak': { verdict: 'deterministic', outcome: 'completed' },
}

describe('fault classes', () => {
  it('each bundled fault ends every interleaving the same way, and its report token replays to the same bytes', async () => {
    const run = await runCli(['sweep', 'faults', '--workers', '1', '--report', 'r-faults', '--goldens', 'g-faults'], { cwd: dir.root })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = await readReport(join(dir.root, 'r-faults'))
    expect(report.complete).toBe(true)
    expect(report.scenarios.map((scenario) => scenario.name).sort()).toEqual(Object.keys(FAULT_ENDINGS).sort())
    for (const scenario of report.scenarios) {
      const ending = FAULT_ENDINGS[scenario.name]!
      expect(scenario, scenario.name).toMatchObject({ verdict: ending.verdict, outcome: ending.outcome, passed: true, distinctOutputs: 1 })
      expect(scenario.explored, scenario.name).toBe(Number(scenario.space))
      for (const output of scenario.outputs) {
        expect(parseToken(output.token).scenario).toBe(scenario.name)
        const replayed = await replay(output.token, '--scenarios', 'faults')
        expect(replayed.hash, output.token).toBe(output.hash)
        expect(replayed.projection.outcome).toBe(ending.outcome)
        if (ending.load) expect(replayed.projection.errors.load).toEqual(ending.load)
        expect(replayed.projection.stuck?.reason).toBe(ending.stuck)
      }
    }
  })

  it('a plugin that waits on I/O that never completes is stuck once the scenario timeout expires, and every interleaving is still explored', async () => {
    const run = await runCli(['sweep', 'busy.yml', '--workers', '1', '--report', 'r-busy', '--goldens', 'g-busy'], { cwd: dir.root })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [busy] = (await readReport(join(dir.root, 'r-busy'))).scenarios
    expect(busy).toMatchObject({ name: 'busy', verdict: 'stuck', outcome: 'stuck', passed: true, space: '6', explored: 6 })
    const output = busy!.outputs[0]!
    expect(parseToken(output.token).schedule).toContain('busy')
    const spawned = await runCli(['replay', output.token, '--json', '--scenarios', 'busy.yml'], { cwd: dir.root })
    expect(spawned.code).toBe(0)
    const replayed = JSON.parse(spawned.stdout) as Replayed
    expect(replayed.hash).toBe(output.hash)
    expect(replayed.projection.outcome).toBe('stuck')
    expect(replayed.projection.stuck).toMatchObject({ reason: 'timeout', phase: 'boot' })
    expect(replayed.projection.stuck?.waiting).toContain('busy')
  })

  it('a plugin that spins an interval while its boot never settles is stuck without progress long before the timeout', async () => {
    const started = Date.now()
    const run = await runCli(['sweep', 'spin.yml', '--workers', '1', '--report', 'r-spin', '--goldens', 'g-spin'], { cwd: dir.root })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [spin] = (await readReport(join(dir.root, 'r-spin'))).scenarios
    expect(spin).toMatchObject({ name: 'spin', verdict: 'stuck', outcome: 'stuck', passed: true, discovered: ['spin#timer1'] })
    const replayed = await replay(spin!.outputs[0]!.token, '--scenarios', 'spin.yml')
    expect(replayed.projection.stuck).toMatchObject({ reason: 'no-progress', phase: 'boot' })
    expect(replayed.projection.stuck?.waiting).toContain('spin')
    // Ten seconds of timeout per interleaving would take a minute; the spin is recognised by count instead.
    expect(Date.now() - started).toBeLessThan(30_000)
  })

  it('--timeout ends a stuck scenario without its own timeout, and the sweep goes on to the next scenario', async () => {
    const run = await runCli(['sweep', 'multi', '--timeout', '300', '--workers', '2', '--report', 'r-multi', '--goldens', 'g-multi'], { cwd: dir.root })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = await readReport(join(dir.root, 'r-multi'))
    expect(report.complete).toBe(true)
    expect(report.summary).toMatchObject({ scenarios: 2, passed: 2, failed: 0 })
    const [stuck, pair] = report.scenarios
    expect(stuck).toMatchObject({ name: 'a-stuck', verdict: 'stuck', explored: 6 })
    expect(pair).toMatchObject({ name: 'b-pair', verdict: 'deterministic', outcome: 'completed', explored: 2, passed: true })
    expect(pair!.outputs[0]!.tools).toEqual(['alpha', 'beta'])
    const replayed = await replay(stuck!.outputs[0]!.token, '--scenarios', 'multi', '--timeout', '300')
    expect(replayed.projection.stuck?.reason).toBe('timeout')
  })
})

describe('leaks', () => {
  it('no callback a plugin leaks, by any timer route, reaches a later interleaving', async () => {
    const out = captured()
    const code = await inDir(dir.root, () => main(['sweep', 'leaks', '--workers', '1', '--report', 'r-leaks', '--goldens', 'g-leaks'], out.cli))
    // Time for anything that escaped its interleaving to run.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(out.stderr()).toBe('')
    const report = await readReport(join(dir.root, 'r-leaks'))
    for (const scenario of report.scenarios) {
      expect(scenario, scenario.name).toMatchObject({ verdict: 'deterministic', explored: 6, distinctOutputs: 1 })
      expect(scenario.outputs[0]!.tools, scenario.name).toEqual(['alpha', 'beta', 'probe'])
    }
    expect(report.scenarios).toHaveLength(LEAK_ROUTES.length)
    expect(code).toBe(0)
    const probe = await import(pathToFileURL(join(dir.root, 'plugins/leak-probe.mjs')).href) as { leakedAfterEnd(): boolean }
    expect(probe.leakedAfterEnd()).toBe(false)
  })
})
