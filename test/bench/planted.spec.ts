import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fastCheckDriver } from '../../bench/fc-driver.ts'
import { PLANTED } from '../../bench/planted.ts'
import { fastCheckTrial, firstDivergence } from '../../bench/trials.ts'
import { headerToolNames, type Projection } from '../../harness/projection/projection.ts'
import { runInterleaving } from '../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import { isSchedule } from '../../harness/space/space.ts'
import { planFor } from '../../harness/explore/plan.ts'
import { spaceOfScenario } from '../../harness/explore/declared-space.ts'
import { referenceTarget } from '../../harness/targets/reference.ts'

const depth2 = await loadScenario(PLANTED['depth-2'].file)
const depth3 = await loadScenario(PLANTED['depth-3'].file)
const ids = (scenario: typeof depth2) => scenario.plugins.map(plugin => plugin.id)

function run(scenario: typeof depth2, schedule: readonly string[]) {
  return runInterleaving(scenario, referenceTarget, schedule)
}

/** `schedule` with the plugins in `order` moved, in that order, into the positions they jointly held. */
function reordered(schedule: readonly string[], order: readonly string[]): string[] {
  const slots = schedule.flatMap((id, index) => (order.includes(id) ? [index] : []))
  const result = [...schedule]
  slots.forEach((slot, k) => { result[slot] = order[k]! })
  return result
}

/** The header's tools as `name: description`. */
function described(projection: Projection): string[] {
  const header = projection.header as { tools: { name: string, description: string }[] }
  return header.tools.map(tool => `${tool.name}: ${tool.description}`)
}

describe('the planted depth-2 bug', () => {
  const base = ids(depth2)

  it('depends on which of search-web and search-code registers first, and only on that', async () => {
    const webFirst = await run(depth2, base)
    const codeFirst = await run(depth2, reordered(base, ['search-code', 'search-web']))
    expect(webFirst.projection.outcome).toBe('completed')
    expect(described(webFirst.projection).filter(tool => tool.startsWith('search:'))).toEqual(['search: web search', 'search: code search'])
    expect(described(codeFirst.projection).filter(tool => tool.startsWith('search:'))).toEqual(['search: code search', 'search: web search'])
    expect(codeFirst.hash).not.toBe(webFirst.hash)
    // Every other plugin moved around (the pair's order kept): the same bytes.
    const shuffled = reordered(base, ['tool-lint', 'tool-git', 'search-web', 'tool-web', 'tool-subagent', 'tool-todo', 'search-code', 'tool-shell', 'tool-edit', 'tool-fs'])
    expect((await run(depth2, shuffled)).hash).toBe(webFirst.hash)
    expect((await run(depth2, [...base].reverse())).hash).toBe(codeFirst.hash)
  })
})

describe('the planted depth-3 bug', () => {
  const base = ids(depth3)
  const triple = ['tool-x', 'probe-z', 'tool-y'] as const
  const orders = [
    ['tool-x', 'probe-z', 'tool-y'],
    ['tool-x', 'tool-y', 'probe-z'],
    ['probe-z', 'tool-x', 'tool-y'],
    ['probe-z', 'tool-y', 'tool-x'],
    ['tool-y', 'tool-x', 'probe-z'],
    ['tool-y', 'probe-z', 'tool-x'],
  ]

  it('changes the bytes exactly when tool-x < probe-z < tool-y', async () => {
    const results = []
    for (const order of orders) results.push({ order, result: await run(depth3, reordered(base, order)) })
    for (const { order, result } of results) {
      const bug = order.join() === triple.join()
      expect(headerToolNames(result.projection).includes('z_extra'), order.join(' < ')).toBe(bug)
    }
    const hashes = new Set(results.filter(({ order }) => order.join() !== triple.join()).map(({ result }) => result.hash))
    expect(hashes.size).toBe(1)
    // The rest of the schedule does not matter: x < z < y far apart, with other plugins between and around them.
    const spread = ['tool-x', 'tool-git', 'tool-fs', 'probe-z', 'tool-web', 'tool-shell', 'tool-edit', 'tool-y', 'tool-todo', 'tool-subagent']
    expect(headerToolNames((await run(depth3, spread)).projection)).toContain('z_extra')
  })

  const hashOf = async (schedule: readonly string[]) => (await run(depth3, schedule)).hash

  it('is found by the 3-way covering set (any seed) but not by the 2-way one', async () => {
    for (const seed of ['0', '1']) {
      const { schedules } = planFor(depth3, { strategy: 'cover', strength: 3, budget: 100, seed })
      expect(schedules.length).toBeLessThanOrEqual(16)
      expect(await firstDivergence(schedules, hashOf)).not.toBeNull()
    }
    const pairwise = planFor(depth3, { strategy: 'cover', strength: 2, budget: 100, seed: '0' }).schedules
    expect(pairwise).toHaveLength(2)
    expect(await firstDivergence(pairwise, hashOf)).toBeNull()
  })
})

describe('the fast-check peer driver', () => {
  const operationsOf = (scenario: typeof depth2) => spaceOfScenario(scenario).chains.flatMap(chain => chain.ops)

  it('releases in the order fast-check chooses (schedulerFor), reaching the projection the harness reaches for that order', async () => {
    // Task ids follow the order operations became pending: the loader requests imports in entry order.
    const releaseOrder = [7, 4, 10, 1, 2, 9, 3, 6, 5, 8]
    const operations = operationsOf(depth2)
    const viaPeer = await runInterleaving(depth2, referenceTarget, operations, { drive: fastCheckDriver(fc.schedulerFor(releaseOrder)) })
    expect(viaPeer.schedule).toEqual(releaseOrder.map(task => operations[task - 1]))
    const viaHarness = await run(depth2, viaPeer.schedule)
    expect(viaHarness.json).toBe(viaPeer.json)
  })

  it('produces valid schedules under fc.scheduler, each replaying to the same bytes through the harness', async () => {
    const schedules: string[][] = []
    await fc.assert(fc.asyncProperty(fc.scheduler(), async (scheduler) => {
      const viaPeer = await runInterleaving(depth3, referenceTarget, operationsOf(depth3), { drive: fastCheckDriver(scheduler) })
      schedules.push(viaPeer.schedule)
      expect(isSchedule(spaceOfScenario(depth3), viaPeer.schedule)).toBe(true)
      expect((await run(depth3, viaPeer.schedule)).json).toBe(viaPeer.json)
    }), { seed: 7, numRuns: 4 })
    expect(new Set(schedules.map(schedule => schedule.join())).size).toBeGreaterThan(1)
  })

  it('finds the depth-2 bug within its budget, run by fast-check itself', async () => {
    expect(await fastCheckTrial(depth2, 3, 30)).not.toBeNull()
  })
})
