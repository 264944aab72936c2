import { afterAll, describe, expect, it } from 'vitest'
import { planFor, planSpace } from '../../../harness/explore/plan.ts'
import { spaceOfScenario } from '../../../harness/explore/declared-space.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { isSchedule, scheduleKey, spaceOf, spaceSize } from '../../../harness/space/space.ts'
import { STRATEGY_NAMES } from '../../../harness/strategies/index.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** Four independent plugins, one with two batches: 5!/2 = 60 schedules. */
async function fourPlugins(name: string, extra = '') {
  const dir = await fixtureDir()
  return loadScenario(await dir.write(`${name}.yml`, `app: none\n${extra}plugins:\n  - { id: p, tools: [p] }\n  - { id: q, tools: [q] }\n  - { id: r, tools: [r] }\n  - { id: s, batches: [[s], [t]] }\nexpect:\n  outcome: completed\n`))
}

describe('planning', () => {
  it('plans distinct schedules of the space, never more than the budget, with every strategy', async () => {
    const scenario = await fourPlugins('four')
    const space = spaceOfScenario(scenario)
    expect(spaceSize(space)).toBe(60n)
    for (const strategy of STRATEGY_NAMES) {
      for (const budget of [0, 1, 7, 60, 100]) {
        const { schedules } = planFor(scenario, { strategy, budget, seed: '1' })
        expect(schedules.length, `${strategy} with budget ${budget}`).toBeLessThanOrEqual(budget)
        expect(new Set(schedules.map(scheduleKey)).size).toBe(schedules.length)
        expect(schedules.every(schedule => isSchedule(space, schedule))).toBe(true)
      }
    }
    expect(planFor(scenario, { strategy: 'exhaustive', budget: 100, seed: '1' }).schedules).toHaveLength(60)
  })

  it("lets the scenario's own budget cap the sweep's, never raise it", async () => {
    const capped = await fourPlugins('capped', 'budget: 5\n')
    expect(planFor(capped, { strategy: 'exhaustive', budget: 100, seed: '1' }).schedules).toHaveLength(5)
    expect(planFor(capped, { strategy: 'exhaustive', budget: 3, seed: '1' }).schedules).toHaveLength(3)
  })

  it('plans over a space it is given instead of the declared one', async () => {
    const scenario = await fourPlugins('given')
    const given = spaceOf([{ id: 'p', batches: 1 }, { id: 'q', batches: 1 }])
    const { space, schedules } = planFor(scenario, { strategy: 'exhaustive', budget: 100, seed: '1' }, given)
    expect(space).toBe(given)
    expect(schedules.map(schedule => schedule.join(','))).toEqual(expect.arrayContaining(['p,q', 'q,p']))
    expect(schedules).toHaveLength(2)
  })

  it('plans the same schedules for the same seed and scenario, and draws per scenario', async () => {
    const options = { strategy: 'random' as const, budget: 10, seed: '42' }
    const one = await fourPlugins('one')
    const keys = (scenario: typeof one) => planFor(scenario, options).schedules.map(scheduleKey)
    expect(keys(one)).toEqual(keys(one))
    expect(keys(await fourPlugins('one'))).toEqual(keys(one))
    expect(keys(await fourPlugins('other'))).not.toEqual(keys(one))
  })

  it('claims for a finished exhaustive plan that every schedule ran, and no more for a cut one', async () => {
    const scenario = await fourPlugins('claims')
    expect(planFor(scenario, { strategy: 'exhaustive', budget: 100, seed: '1' }).plan.guarantee(60, true)).toEqual({ kind: 'exhaustive' })
    expect(planFor(scenario, { strategy: 'exhaustive', budget: 10, seed: '1' }).plan.guarantee(10, true)).toEqual({ kind: 'sampled' })
  })
})
