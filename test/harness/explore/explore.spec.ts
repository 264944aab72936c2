import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discoverSpace, explore } from '../../../harness/explore/explore.ts'
import type { Exploration } from '../../../harness/explore/exploration.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { spaceOf } from '../../../harness/space/space.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

/**
 * Three tool plugins, each with one tool: under `registration-order` the
 * header lists the tools in import order, so the 3! = 6 orders give 6 outputs;
 * under `canonical` they give one.
 */
const THREE = (variant: string) => `app: none\nvariant: ${variant}\nplugins:\n  - { id: a, tools: [a] }\n  - { id: b, tools: [b] }\n  - { id: c, tools: [c] }\nexpect:\n  outcome: completed\n  deterministic: ${variant === 'canonical'}\n`

let racing: Scenario
let stable: Scenario
const runner = inProcessRunner()

beforeAll(async () => {
  const dir = await fixtureDir()
  racing = await loadScenario(await dir.write('racing.yml', THREE('registration-order')))
  stable = await loadScenario(await dir.write('stable.yml', THREE('canonical')))
})
afterAll(removeFixtureDirs)

describe('exploring a scenario', () => {
  let whole: Exploration
  let racingWhole: Exploration
  beforeAll(async () => {
    whole = await explore(stable, runner, { strategy: 'exhaustive', budget: 100, seed: '0' })
    racingWhole = await explore(racing, runner, { strategy: 'exhaustive', budget: 100, seed: '0' }, { byPosition: true, space: whole.space })
  })

  it('discovers the space by running the declared chains whole, one after another', async () => {
    const recorded: string[][] = []
    const watching: Runner = { ...runner, runOne: (scenario, schedule) => { recorded.push([...schedule]); return runner.runOne(scenario, schedule) } }
    const space = await discoverSpace(stable, watching)
    expect(recorded).toEqual([['a', 'b', 'c']])
    const { applies, ...chains } = space
    expect(chains).toEqual(spaceOf([{ id: 'a', batches: 1 }, { id: 'b', batches: 1 }, { id: 'c', batches: 1 }]))
    // The same run recorded when each plugin applied: each waits for its own entry's release alone, and none ties.
    expect(applies?.units.map(unit => [unit.unit, unit.needs])).toEqual([['a', ['a']], ['b', ['b']], ['c', ['c']]])
    expect(applies?.ties.size).toBe(0)
    expect(whole.space).toEqual(space)
  })

  it('runs the whole plan and claims exhaustive when the budget covers the space, on the runtime it ran on', () => {
    expect(whole.size).toBe(6n)
    expect(whole).toMatchObject({ ran: 6, explored: 6, finished: true, guarantee: { kind: 'exhaustive' }, deviations: null, firstDivergenceAt: null })
    expect(whole.outputs).toHaveLength(1)
    expect(whole.outputs[0]).toMatchObject({ count: 6, first: { index: 0 } })
    expect(whole.orders).toBeUndefined()
    expect(whole.runtime?.node).toBe(process.version)
  })

  it('respects the budget and then claims only a sample', async () => {
    const exploration = await explore(stable, runner, { strategy: 'exhaustive', budget: 3, seed: '0' }, { space: whole.space })
    expect(exploration).toMatchObject({ ran: 3, explored: 3, finished: true, guarantee: { kind: 'sampled' } })
    expect(exploration.size).toBe(6n)
  })

  it('groups a racing scenario by output and says where it first diverged', () => {
    expect(racingWhole.outputs.map(output => output.count)).toEqual([1, 1, 1, 1, 1, 1])
    expect(racingWhole.outputs.map(output => output.first.index)).toEqual([0, 1, 2, 3, 4, 5])
    expect(racingWhole.outputs.every(output => JSON.parse(output.json) !== null)).toBe(true)
    // Every position ran, and the first output other than position 0's is position 1's: the second interleaving.
    expect(racingWhole.firstDivergenceAt).toBe(2)
    const positions = racingWhole.byPosition!
    expect([...positions.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect(new Set([...positions.values()].map(result => result.hash)).size).toBe(6)
    expect([...positions.values()].every(result => result.schedule.length === 3)).toBe(true)
  })

  it('splits the plan into disjoint shards that together are the whole exploration, each claiming only a sample', async () => {
    const shards: Exploration[] = []
    // One after the other: the in-process runner runs one interleaving at a time.
    for (const index of [1, 2, 3]) {
      shards.push(await explore(racing, runner, { strategy: 'exhaustive', budget: 100, seed: '0', shard: { index, count: 3 } }, { byPosition: true, space: whole.space }))
    }
    expect(shards.map(shard => [...shard.byPosition!.keys()].sort())).toEqual([[0, 3], [1, 4], [2, 5]])
    for (const shard of shards) {
      expect(shard.guarantee).toEqual({ kind: 'sampled' })
      expect(shard.orders).toHaveLength(2)
      for (const [position, result] of shard.byPosition!) expect(result).toEqual(racingWhole.byPosition!.get(position))
    }
    expect(new Set(shards.flatMap(shard => shard.orders!)).size).toBe(6)
  })

  it('claims only a sample for a shard even when it alone ran every interleaving', async () => {
    const single = await loadScenario(await (await fixtureDir()).write('single.yml', 'app: none\nplugins:\n  - { id: a, tools: [a] }\nexpect:\n  outcome: completed\n'))
    const space = spaceOf([{ id: 'a', batches: 1 }])
    const first = await explore(single, runner, { strategy: 'exhaustive', budget: 100, seed: '0', shard: { index: 1, count: 2 } }, { space })
    expect(first).toMatchObject({ ran: 1, finished: true, guarantee: { kind: 'sampled' } })
    const second = await explore(single, runner, { strategy: 'exhaustive', budget: 100, seed: '0', shard: { index: 2, count: 2 } }, { space })
    expect(second).toMatchObject({ ran: 0, finished: true, orders: [], guarantee: { kind: 'sampled' } })
  })

  it('stops when interrupted and says it did not finish', async () => {
    const controller = new AbortController()
    const progress: [number, number][] = []
    const exploration = await explore(stable, runner, { strategy: 'exhaustive', budget: 100, seed: '0' }, { signal: controller.signal, space: whole.space, onProgress: (explored, planned) => {
        progress.push([explored, planned])
        if (explored === 2) controller.abort()
      } })
    expect(progress).toEqual([[1, 6], [2, 6]])
    expect(exploration).toMatchObject({ ran: 2, finished: false, guarantee: { kind: 'sampled' } })
  })
})
