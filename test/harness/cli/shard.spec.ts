import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../harness/report/types.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'
import { main } from '../../../harness/cli/main.ts'
import { captured, comparable, exists, FIVE, RACE, RACE4, inDir, readReport, runCli } from '../../support/cli.ts'

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
      // Alone, each half saw one interleaving: no race, so the scenario fails.
      expect(run.code).toBe(1)
      halves.push(await readReport(join(dir.root, `half-${index}`)))
    }
    expect(halves.map(report => entry(report, 'race').verdict)).toEqual(['deterministic', 'deterministic'])
    expect(halves[0]!.scenarios[0]!.outputs[0]!.hash).not.toBe(halves[1]!.scenarios[0]!.outputs[0]!.hash)

    const run = await runCli(['merge', 'half-1', 'half-2', '--report', 'half-merged', '--format', 'json,md'], { cwd: dir.root })
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^✓\s+race\s+divergent \(completed\)\s+exhaustive\s+2\/2$/m)
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
      [['nowhere'], `loadrace merge: ${join('nowhere', 'report.json')}: no such file (each DIR must hold a sweep's report.json)\n`],
    ]
    for (const [dirs, message] of cases) {
      const out = captured()
      expect(await inDir(dir.root, () => main(['merge', ...dirs, '--report', 'refused'], out.cli)), dirs.join(' ')).toBe(2)
      expect(out.stderr()).toBe(message)
      expect(await exists(join(dir.root, 'refused'))).toBe(false)
    }
    const reseeded = await runCli(['sweep', 'pair', '--strategy', 'exhaustive', '--seed', '9', '--shard', '2/2', '--workers', '1', '--report', 'half-2-seed-9'], { cwd: dir.root })
    expect(reseeded.code).toBe(1)
    const mixed = await runCli(['merge', 'half-1', 'half-2-seed-9', '--report', 'refused'], { cwd: dir.root })
    expect(mixed.code).toBe(2)
    expect(mixed.stderr).toBe('loadrace merge: half-1 and half-2-seed-9 differ in seed ("0" vs "9"): shards of one sweep share strategy, seed, budget, depth, strength and hosts\n')
    expect(await exists(join(dir.root, 'refused'))).toBe(false)
  })
})
