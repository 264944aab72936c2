import { afterAll, describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../../harness/report/markdown.ts'
import { scenarioBlock } from '../../../harness/report/terminal.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { REPLAYS, uncontrolledReplay } from '../../../harness/judge/analyse.ts'
import { explore } from '../../../harness/explore/explore.ts'
import { RunCache } from '../../../harness/runners/run-cache.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { assembleReport, sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

/**
 * The uncontrolled-nondeterminism check reruns the first interleaving of every
 * distinct output as a new run and compares bytes. The plugin below keeps
 * module-level state: how often it was applied with 0, 1 or 2 of the watched
 * tools already registered. Its header names that count (`seen_0` … `seen_2`),
 * so the three positions are three legitimate outputs; once it has been applied
 * at `position` more than `after` times it also contributes `stale`. The
 * exhaustive exploration (module first, so the outputs appear in the order
 * seen_0, seen_1, seen_2) applies it exactly twice at each position, so
 * `stale` can only show on a rerun, and only on the chosen output's rerun.
 */
const STATEFUL_MODULE = `const applied = new Map()
export default {
  name: 'stateful',
  inject: ['systemPrompt', 'tools'],
  apply(ctx, config) {
    const before = config.watch.filter(name => ctx.tools.get(name) !== undefined).length
    const count = (applied.get(before) ?? 0) + 1
    applied.set(before, count)
    const names = ['seen_' + before]
    if (before === config.position && count > config.after) names.push('stale')
    const schemas = names.map(name => ({ name, description: name + ' tool', parameters: { type: 'object', properties: {} } }))
    ctx.systemPrompt.tools(() => ({ schemas }))
  },
}
`

function scenarioText(position: number, after: number): string {
  return `name: stateful
app: none
plugins:
  - id: stateful
    module: ./stateful.mjs
    config: { watch: [ta, tb], position: ${position}, after: ${after} }
  - id: tool-ta
    tools: [ta]
  - id: tool-tb
    tools: [tb]
expect:
  outcome: completed
  deterministic: false
`
}

/** Sweeps the stateful scenario from a fresh folder (so the module, and its state, is evaluated afresh). */
async function sweepStateful(position: number, after: number) {
  const dir = await fixtureDir()
  await dir.write('stateful.mjs', STATEFUL_MODULE)
  const scenario = await loadScenario(await dir.write('stateful.yml', scenarioText(position, after)))
  return sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner: inProcessRunner() })
}

afterAll(removeFixtureDirs)

/**
 * A plugin whose tool is renamed once it has been applied more than three
 * times in all — counted in a file its config names, so the count is the same
 * whichever threads ran the applications: the discovery run and the two
 * planned interleavings register `steady`, and only a fresh rerun registers
 * `flipped`.
 */
const FLIPS_AFTER_THREE = `import { appendFileSync, readFileSync } from 'node:fs'
export default {
  name: 'flips',
  inject: ['tools'],
  apply(ctx, config) {
    appendFileSync(config.count, 'x')
    const applied = readFileSync(config.count, 'utf8').length
    ctx.tools.register({ name: applied <= 3 ? 'steady' : 'flipped', description: 'flips', parameters: { type: 'object', properties: {} } })
  },
}
`

const RUNNERS: [string, () => Runner][] = [['in process', () => inProcessRunner()], ['on worker threads', () => workerPool({ size: 2 })]]

describe.each(RUNNERS)('an exploration that found a single output (%s)', (_, makeRunner) => {
  it('is still rerun: the rerun that gives other bytes makes it uncontrolled, not deterministic', async () => {
    const dir = await fixtureDir()
    await dir.write('flips.mjs', FLIPS_AFTER_THREE)
    const count = `${dir.root}/applied.txt`
    const scenario = await loadScenario(await dir.write('flips.yml', `name: flips\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: flips\n    module: ./flips.mjs\n    config: { count: ${JSON.stringify(count)} }\nexpect:\n  outcome: completed\n`))
    const runner = makeRunner()
    try {
      const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 2 }, { runner })
      expect(report.explored).toBe(2)
      expect(report.outputs.map(output => output.tools)).toEqual([['a', 'steady']])
      expect(report.verdict).toBe('uncontrolled')
      expect(report.uncontrolled).toMatchObject({ token: report.outputs[0]!.token, hashes: [report.outputs[0]!.hash, expect.not.stringMatching(report.outputs[0]!.hash)], part: 'header' })
      // Flipped once, it stays flipped: the order-only runs agree, and so does a controlled run after them — the system's doing, not loadrace's.
      const evidence = report.uncontrolled!.orderOnly!
      expect(evidence).toMatchObject({ agree: true, controlledAfter: evidence.hashes[0] })
      expect(report.uncontrolled!.hashes[1]).toBe(evidence.hashes[0])
      expect(report.problems[0]).toContain('and a controlled run after them gives the same bytes: the system\'s bytes changed from one run to the next and then held')
      expect(report.passed).toBe(false)
    } finally {
      await runner.close()
    }
  }, 60_000)
})

/** A plugin whose second application in all (the first planned interleaving's, after the discovery run's) throws; every other registers its tool. */
const FAILS_ONCE = `import { appendFileSync, readFileSync } from 'node:fs'
export default {
  name: 'fails-once',
  inject: ['tools'],
  apply(ctx, config) {
    appendFileSync(config.count, 'x')
    if (readFileSync(config.count, 'utf8').length === 2) throw new Error('the second application fails')
    ctx.tools.register({ name: 'once', description: 'once', parameters: { type: 'object', properties: {} } })
  },
}
`

describe('an interleaving that ended otherwise when it ran again', () => {
  it('says how each run ended, beside the bytes that moved', async () => {
    const dir = await fixtureDir()
    await dir.write('fails-once.mjs', FAILS_ONCE)
    const count = `${dir.root}/applied.txt`
    const scenario = await loadScenario(await dir.write('fails-once.yml', `name: fails-once\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: fails-once\n    module: ./fails-once.mjs\n    config: { count: ${JSON.stringify(count)} }\nexpect:\n  outcome: completed\n`))
    const report = await sweepScenario(scenario, { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report.verdict).toBe('uncontrolled')
    // The run that failed is the explored one: its rerun completed.
    expect(report.uncontrolled!.endings).toEqual([expect.stringMatching(/^load-error: .*the second application fails/), 'completed'])
    expect(report.problems[0]).toMatch(/\(the explored run ended load-error: .*the second application fails.*; the rerun completed\)/)
  }, 60_000)

  it('names nothing when both runs ended alike', async () => {
    const report = await sweepStateful(2, 2)
    expect(report.verdict).toBe('uncontrolled')
    expect(report.uncontrolled!.endings).toBeUndefined()
    expect(report.problems[0]).not.toContain('the explored run ended')
  }, 60_000)
})

describe('how often each output is rerun', () => {
  it('the first output twice and every other once; both sides of a divergence four times', async () => {
    expect(REPLAYS).toEqual({ output: 1, baseline: 2, divergence: 4 })
    const dir = await fixtureDir()
    // Three tool plugins in registration order: every one of the 3! orders is its own output.
    const scenario = await loadScenario(await dir.write('race.yml', 'name: race3\napp: none\nvariant: registration-order\nplugins:\n  - { id: ta, tools: [ta] }\n  - { id: tb, tools: [tb] }\n  - { id: tc, tools: [tc] }\nexpect:\n  outcome: completed\n  deterministic: false\n'))
    const runner = inProcessRunner()
    const exploration = await explore(scenario, runner, { strategy: 'exhaustive', budget: 100, seed: '0' })
    expect(exploration.outputs).toHaveLength(6)
    for (const [divergent, reruns] of [[false, 2 + 5], [true, 4 + 4 + 4]] as const) {
      const cache = new RunCache(runner, scenario)
      expect(await uncontrolledReplay(scenario, exploration.outputs, cache, divergent)).toBeNull()
      expect(cache.count).toBe(reruns)
    }
  }, 60_000)
})

describe('uncontrolled nondeterminism', () => {
  it('is found on the rerun of a later output, not only the first: both hashes, the diff, module-level state named', async () => {
    const report = await sweepStateful(2, 2)
    expect(report.explored).toBe(6)
    expect(report.outputs.map(output => output.tools)).toEqual([['seen_0', 'ta', 'tb'], ['seen_1', 'ta', 'tb'], ['seen_2', 'ta', 'tb']])
    expect(report.verdict).toBe('uncontrolled')
    const third = report.outputs[2]!
    expect(report.uncontrolled).toMatchObject({ token: third.token, hashes: [third.hash, expect.not.stringMatching(third.hash)], part: 'header' })
    expect(report.uncontrolled!.diff).toContain(`--- ${third.token} (explored)`)
    expect(report.uncontrolled!.diff).toContain(`+++ ${third.token} (rerun)`)
    expect(report.uncontrolled!.diff).toMatch(/^\+ +"name": "stale"$/m)
    expect(report.passed).toBe(false)
    expect(report.problems).toEqual([expect.stringContaining(`the same interleaving replayed to different bytes (${third.token}): explored ${third.hash}, rerun ${report.uncontrolled!.hashes[1]}, differing in header`)])
    expect(report.problems[0]).toContain('likely module-level state in a plugin module')
    const markdown = renderMarkdown(assembleReport([report], { strategy: 'exhaustive', seed: '0', budget: 100, workers: 1 }, true, 0))
    expect(markdown).toContain(`**Rerun diff** of the header of \`${third.token}\` (explored → rerun)`)
  }, 60_000)

  it('is found on a second rerun of the first output: every rerun is a new run, never a remembered one', async () => {
    expect(REPLAYS.baseline).toBeGreaterThanOrEqual(2)
    // Exploring applies the plugin twice with nothing registered before it; the first rerun is the third time, the second rerun the fourth.
    const report = await sweepStateful(0, 3)
    expect(report.verdict).toBe('uncontrolled')
    expect(report.uncontrolled?.token).toBe(report.outputs[0]!.token)
  }, 60_000)

  it('lets a scenario whose every rerun reproduces its output be judged on the outputs', async () => {
    const report = await sweepStateful(2, 100)
    expect(report.verdict).toBe('divergent')
    expect(report.uncontrolled).toBeUndefined()
    expect(report.passed).toBe(true)
  }, 60_000)

  it('shows in the terminal, like a divergence, where the rerun first differs and the diff of that part', async () => {
    const report = await sweepStateful(2, 2)
    const third = report.outputs[2]!
    const lines = scenarioBlock(report, report.name.length)
    const first = lines.findIndex(line => line.startsWith('    first difference: '))
    expect(lines[first]).toMatch(/^ {4}first difference: header\.tools\[\d\]\.name, column \d+:$/)
    const diff = lines.indexOf('    diff of the header (explored → rerun):')
    expect(diff).toBeGreaterThan(first)
    expect(lines.slice(diff + 1, diff + 3)).toEqual([`    --- ${third.token} (explored)`, `    +++ ${third.token} (rerun)`])
    expect(lines.slice(diff)).toContainEqual(expect.stringMatching(/^ {4}\+ +"name": "stale"$/))
    // The problem line, with both hashes, stays first.
    expect(lines[1]).toContain(`explored ${third.hash}, rerun ${report.uncontrolled!.hashes[1]}`)
  }, 60_000)
})
