import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../harness/report/sweep-report.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { main } from '../../../harness/cli/main.ts'
import { captured, comparable, exists, FIVE, PAIR, RACE, RACE4, inDir, readReport, runCli } from '../../support/cli.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('many/five.yml', FIVE)
  await dir.write('many/race4.yml', RACE4)
  await dir.write('pair/race.yml', RACE)
})

afterAll(removeFixtureDirs)

function entry(report: Report, name: string): ScenarioReport {
  const found = report.scenarios.find(scenario => scenario.name === name)
  if (!found) throw new Error(`no scenario ${name} in the report`)
  return found
}

async function sweep(args: string[], report: string): Promise<Report> {
  const run = await runCli(['sweep', ...args, '--strategy', 'exhaustive', '--workers', '1', '--report', report, '--goldens', `goldens-${report}`], { cwd: dir.root })
  expect(run.stderr).toBe('')
  return readReport(join(dir.root, report))
}

describe('--shard i/n and loadrace merge', () => {
  let full: Report
  let shards: Report[]

  beforeAll(async () => {
    full = await sweep(['many'], 'full')
    shards = []
    for (const index of [1, 2, 3]) shards.push(await sweep(['many', '--shard', `${index}/3`], `shard-${index}`))
  })

  it('shards are disjoint and together are exactly the unsharded exploration', () => {
    // race4: every one of the 24 interleavings sends its own bytes, so each output's `first` is its position.
    const whole = entry(full, 'race4')
    expect(whole.outputs.map(output => output.first)).toEqual([...Array(24).keys()])
    const seen = new Map<number, string>()
    shards.forEach((report, k) => {
      expect(report.options.shard).toBe(`${k + 1}/3`)
      const part = entry(report, 'race4')
      expect(part.explored).toBe(8)
      expect(part.guarantee).toBe('sampled')
      for (const output of part.outputs) {
        expect(output.first % 3).toBe(k)
        expect(seen.has(output.first)).toBe(false)
        seen.set(output.first, output.hash)
      }
    })
    expect(new Map(whole.outputs.map(output => [output.first, output.hash]))).toEqual(seen)

    // five: one output; the shards' counts add up to the whole space.
    expect(shards.map(report => entry(report, 'five').explored)).toEqual([40, 40, 40])
    expect(shards.map(report => entry(report, 'five').outputs[0]!.count)).toEqual([40, 40, 40])
    expect(new Set(shards.map(report => entry(report, 'five').outputs[0]!.hash))).toEqual(new Set([entry(full, 'five').outputs[0]!.hash]))
    expect(shards.map(report => entry(report, 'five').outputs[0]!.first)).toEqual([0, 1, 2])
  })

  it('merging the shards gives the unsharded report, guarantee and verdicts recomputed', async () => {
    const run = await runCli(['merge', 'shard-3', 'shard-1', 'shard-2', '--report', 'merged', '--goldens', 'goldens-merged'], { cwd: dir.root })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const merged = await readReport(join(dir.root, 'merged'))
    expect(merged.options.shard).toBeNull()
    expect(entry(merged, 'race4').guarantee).toBe('exhaustive')
    expect(entry(merged, 'five').guarantee).toBe('exhaustive')
    expect(comparable(merged)).toEqual(comparable(full))
  })

  it('a divergence whose two sides fell in different shards is found, minimised and blamed by merge', async () => {
    const halves: Report[] = []
    for (const index of [1, 2]) {
      const run = await runCli(['sweep', 'pair', '--strategy', 'exhaustive', '--shard', `${index}/2`, '--workers', '1', '--report', `half-${index}`], { cwd: dir.root })
      // Alone, each half saw one interleaving: whether the race is found is for the merge to say, so the shard passes.
      expect(run.code).toBe(0)
      halves.push(await readReport(join(dir.root, `half-${index}`)))
    }
    expect(halves.map(report => entry(report, 'race').verdict)).toEqual(['deterministic', 'deterministic'])
    expect(halves[0]!.scenarios[0]!.outputs[0]!.hash).not.toBe(halves[1]!.scenarios[0]!.outputs[0]!.hash)

    const run = await runCli(['merge', 'half-1', 'half-2', '--report', 'half-merged', '--format', 'json,md'], { cwd: dir.root })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^✓\s+race\s+divergent \(completed\)\s+exhaustive\s+2\/2  \(divergent, as its file expects\)$/m)
    const race = entry(await readReport(join(dir.root, 'half-merged')), 'race')
    expect(race).toMatchObject({ verdict: 'divergent', passed: true, explored: 2, distinctOutputs: 2, guarantee: 'exhaustive' })
    expect(race.outputs.map(output => [output.first, output.count])).toEqual([[0, 1], [1, 1]])
    expect(race.divergence?.blame).toEqual(['tool-ta', 'tool-tb'])
    expect(race.divergence?.part).toBe('header')
    expect(race.divergence?.kind).toBe('order')
  })

  it('refuses reports that are not the shards of one sweep, writing nothing', async () => {
    const cases: [string[], string][] = [
      [['shard-1', 'shard-2'], 'loadrace merge: shard 3/3 is missing; give the reports of all 3 shards exactly once\n'],
      [['shard-1', 'shard-2', 'shard-2', 'shard-3'], 'loadrace merge: shard 2/3 is given twice (shard-2 and shard-2)\n'],
      [['shard-1', 'half-2'], 'loadrace merge: shard-1 is a shard of 3 but half-2 is a shard of 2\n'],
      [['full'], `loadrace merge: ${join('full', 'report.json')}: not a shard report (sweep with --shard i/n to make shards)\n`],
      [['nowhere'], `loadrace merge: ${join('nowhere', 'report.json')}: no such file (each DIR must hold the report.json of a shard)\n`],
    ]
    for (const [dirs, message] of cases) {
      const out = captured()
      expect(await inDir(dir.root, () => main(['merge', ...dirs, '--report', 'refused'], out.cli)), dirs.join(' ')).toBe(2)
      expect(out.stderr()).toBe(message)
      expect(await exists(join(dir.root, 'refused'))).toBe(false)
    }
    const reseeded = await runCli(['sweep', 'pair', '--strategy', 'exhaustive', '--seed', '9', '--shard', '2/2', '--workers', '1', '--report', 'half-2-seed-9'], { cwd: dir.root })
    expect(reseeded.code).toBe(0)
    const mixed = await runCli(['merge', 'half-1', 'half-2-seed-9', '--report', 'refused'], { cwd: dir.root })
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toBe('loadrace merge: half-1 and half-2-seed-9 differ in seed ("0" vs "9"): shards of one sweep share strategy, seed, budget, depth, strength and hosts\n')
    expect(await exists(join(dir.root, 'refused'))).toBe(false)
  })

  it('a shard that holds none of a scenario\'s interleavings skips it saying so, exits 0, and the merge judges the whole', async () => {
    // A deterministic pair has 2 interleavings: of 4 shards, 3/4 and 4/4 hold none of them.
    await dir.write('duo/pair.yml', PAIR)
    // Its golden is pinned first, as a project commits it; the shards then run under CI.
    expect((await runCli(['sweep', 'duo', '--workers', '1', '--report', 'quarter-0', '--goldens', 'goldens-quarter'], { cwd: dir.root })).code).toBe(0)
    const runs = []
    for (const index of [1, 2, 3, 4]) {
      runs.push(await runCli(['sweep', 'duo', '--shard', `${index}/4`, '--workers', '1', '--report', `quarter-${index}`, '--goldens', 'goldens-quarter'], { cwd: dir.root, env: { CI: 'true' } }))
    }
    for (const [i, run] of runs.entries()) expect(run.code, `shard ${i + 1}/4\n${run.stdout}${run.stderr}`).toBe(0)
    const empty = entry(await readReport(join(dir.root, 'quarter-3')), 'pair')
    expect(empty).toMatchObject({ verdict: 'skipped', planned: 0, emptyShard: '3/4', skipped: 'shard 3/4 holds none of its 2 interleavings; the merge of all shards judges it' })
    expect(runs[2]!.stdout).toMatch(/^- {2}pair {2}skipped: shard 3\/4 holds none of its 2 interleavings; the merge of all shards judges it$/m)
    expect(runs[2]!.stderr).toBe('loadrace: shard 3/4 holds no interleaving of any scenario; the merge of all shards judges them\n')
    const merged = await runCli(['merge', 'quarter-1', 'quarter-2', 'quarter-3', 'quarter-4', '--report', 'quarters', '--goldens', 'goldens-quarter'], { cwd: dir.root, env: { CI: 'true' } })
    expect(merged.code, merged.stdout + merged.stderr).toBe(0)
    expect(entry(await readReport(join(dir.root, 'quarters')), 'pair')).toMatchObject({ verdict: 'deterministic', passed: true, explored: 2, guarantee: 'exhaustive' })
  })

  it('a shard that holds one side of an expected race leaves the race to the merge, which finds and blames it', async () => {
    const halves = []
    for (const index of [1, 2]) halves.push(await runCli(['sweep', 'pair', '--shard', `${index}/2`, '--workers', '1', '--report', `race-half-${index}`], { cwd: dir.root, env: { CI: 'true' } }))
    for (const [i, run] of halves.entries()) {
      expect(run.code, `shard ${i + 1}/2\n${run.stdout}${run.stderr}`).toBe(0)
      expect(run.stdout).not.toContain('expected a race')
    }
    const merged = await runCli(['merge', 'race-half-1', 'race-half-2', '--report', 'race-halves'], { cwd: dir.root, env: { CI: 'true' } })
    expect(merged.code, merged.stdout + merged.stderr).toBe(0)
    expect(entry(await readReport(join(dir.root, 'race-halves')), 'race')).toMatchObject({ verdict: 'divergent', passed: true, explored: 2 })
    // Unsharded, a race not found still fails.
    const whole = await runCli(['sweep', 'pair', '--budget', '1', '--workers', '1', '--report', 'race-budget-1'], { cwd: dir.root })
    expect(whole.stdout).toContain('expected a race, but all 1 explored interleavings gave identical bytes')
    expect(whole.code).toBe(1)
  })
})
