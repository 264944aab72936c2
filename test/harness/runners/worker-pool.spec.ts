import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Schedule } from '../../../harness/space/space.ts'
import { planFor } from '../../../harness/explore/plan.ts'
import type { InterleavingRecord, Runner } from '../../../harness/runners/runner.ts'
import { TASKS_PER_WORKER, workerPool } from '../../../harness/runners/worker-pool.ts'
import { JOBS_PER_MESSAGE } from '../../../harness/runners/worker-protocol.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

const FILE = 'scenarios/lexicographic-six.yml'

/**
 * A plugin that knows whether another interleaving of its thread is under way:
 * it counts itself in when applied, waits on a timer, names its tool after
 * whether another witness was waiting meanwhile, and counts itself out.
 */
const WITNESS = `
const counter = Symbol.for('loadrace.test.waiting')
export const name = 'witness'
export const inject = ['tools']
export async function apply(ctx) {
  globalThis[counter] = (globalThis[counter] ?? 0) + 1
  await new Promise(resolve => setTimeout(resolve, 2))
  const name = globalThis[counter] === 1 ? 'alone' : 'overlapped'
  globalThis[counter]--
  ctx.tools.register({ name, description: name, parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
}
`

async function plan(count: number, seed: string, file = FILE): Promise<{ scenario: Awaited<ReturnType<typeof loadScenario>>, schedules: Schedule[] }> {
  const scenario = await loadScenario(file)
  const { schedules } = planFor({ ...scenario, budget: undefined }, { strategy: 'random', budget: count, seed })
  return { scenario, schedules: [...schedules] }
}

function collect(runner: Runner, scenario: Awaited<ReturnType<typeof loadScenario>>, schedules: readonly Schedule[], signal?: AbortSignal, onEach?: (record: InterleavingRecord) => void): Promise<InterleavingRecord[]> {
  const records: InterleavingRecord[] = []
  return runner.runAll(scenario, schedules, (record) => {
    records.push(record)
    onEach?.(record)
  }, signal).then(() => records)
}

afterAll(removeFixtureDirs)

describe('the worker pool: each worker runs one interleaving and holds the next ones', () => {
  let pool: Runner | undefined
  afterEach(async () => {
    await pool?.close()
    pool = undefined
  })

  it(`holds two messages' worth of tasks per worker and still runs them one after the other`, async () => {
    expect(TASKS_PER_WORKER).toBe(2 * JOBS_PER_MESSAGE)
    const dir = await fixtureDir()
    await dir.write('witness.mjs', WITNESS)
    const file = await dir.write('witness.yml', 'app: none\nplugins:\n  - { id: witness, module: ./witness.mjs }\n  - { id: other, tools: [other] }\nexpect:\n  outcome: completed\n')
    const { scenario, schedules } = await plan(12, '7', file)
    pool = workerPool({ size: 1 })
    const records = await collect(pool, scenario, [...schedules, ...schedules])
    expect(records).toHaveLength(2 * schedules.length)
    // Two interleavings at once in one thread would share the sandbox and the clock: the witness would see the other.
    expect(new Set(records.map(record => record.tools.join(',')))).toEqual(new Set(['alone,other']))
  })

  it('hands out again the task a worker held when that worker is ended for another batch', async () => {
    const { scenario, schedules } = await plan(30, '11')
    pool = workerPool({ size: 1 })
    const first = new AbortController()
    // The first batch has two messages' worth of schedules but for two: the worker's inbox holds the rest of it and
    // the second batch's first tasks. Aborting the first batch at its first record ends that worker; the second
    // batch's tasks it held are handed out again, to a new worker.
    const split = TASKS_PER_WORKER - 2
    const aborted = collect(pool, scenario, schedules.slice(0, split), first.signal, () => queueMicrotask(() => first.abort()))
    const second = collect(pool, scenario, schedules.slice(split))
    expect((await aborted).length).toBeLessThan(split)
    const records = await second
    expect(records.map(record => record.index).sort((a, b) => a - b)).toEqual(schedules.slice(split).map((_, index) => index))
  })
})
