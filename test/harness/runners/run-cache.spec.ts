import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunCache } from '../../../harness/runners/run-cache.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

let scenario: Scenario
beforeAll(async () => {
  const dir = await fixtureDir()
  // Under registration-order the header lists the tools in import order: each order has its own bytes.
  scenario = await loadScenario(await dir.write('two.yml', 'app: none\nvariant: registration-order\nplugins:\n  - { id: a, tools: [a] }\n  - { id: b, tools: [b] }\nexpect:\n  outcome: completed\n  deterministic: false\n'))
})
afterAll(removeFixtureDirs)

/** The in-process runner, counting the single runs it is asked for. */
function counted(): { runner: Runner, asked: string[] } {
  const real = inProcessRunner()
  const asked: string[] = []
  return { asked, runner: { ...real, runOne: (scenario, schedule) => { asked.push(schedule.join(',')); return real.runOne(scenario, schedule) } } }
}

describe('the run cache', () => {
  it('runs a schedule once, however often and however concurrently it is asked for', async () => {
    const { runner, asked } = counted()
    const cache = new RunCache(runner, scenario)
    const [first, second] = await Promise.all([cache.run(['a', 'b']), cache.run(['a', 'b'])])
    expect(second).toBe(first)
    expect(await cache.hash(['a', 'b'])).toBe(first.hash)
    expect(asked).toEqual(['a,b'])
    expect(cache.count).toBe(1)
  })

  it('tells schedules apart', async () => {
    const { runner, asked } = counted()
    const cache = new RunCache(runner, scenario)
    const ab = await cache.run(['a', 'b'])
    const ba = await cache.run(['b', 'a'])
    expect(asked).toEqual(['a,b', 'b,a'])
    expect(ab.hash).not.toBe(ba.hash)
    expect(cache.count).toBe(2)
  })

  it('reruns a schedule afresh when asked to, without forgetting the memoised run', async () => {
    const { runner, asked } = counted()
    const cache = new RunCache(runner, scenario)
    const first = await cache.run(['a', 'b'])
    const again = await cache.rerun(['a', 'b'])
    expect(again).not.toBe(first)
    expect(again.hash).toBe(first.hash)
    expect(await cache.run(['a', 'b'])).toBe(first)
    expect(asked).toEqual(['a,b', 'a,b'])
    expect(cache.count).toBe(2)
  })

  it('finds a finished run by the schedule its replay token names, and nothing before it finished', async () => {
    const cache = new RunCache(counted().runner, scenario)
    const running = cache.run(['b', 'a'])
    expect(cache.recorded(['b', 'a'])).toBeUndefined()
    const record = await running
    expect(cache.recorded(['b', 'a'])).toBe(record)
    expect(cache.recorded(['a', 'b'])).toBeUndefined()
  })
})
