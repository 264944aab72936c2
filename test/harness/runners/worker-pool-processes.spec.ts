import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { tokenOf } from '../../../harness/token.ts'
import { removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { alive, killerScenario, runAllOf, whereRan, witnessScenario } from '../../support/process-witness.ts'

let witness: Scenario
let killer: Scenario
beforeAll(async () => {
  witness = await witnessScenario()
  killer = await killerScenario()
})
afterAll(removeFixtureDirs)

describe('the worker pool and its processes', () => {
  let pool: Runner | undefined
  afterEach(async () => {
    await pool?.close()
    pool = undefined
  })

  it('runs more interleavings than it has workers on at most its size of processes, survives a crashed worker, and close ends them', async () => {
    pool = workerPool({ size: 2 })
    const schedules = [['where', 'other'], ['other', 'where'], ['where', 'other'], ['other', 'where'], ['where', 'other']]
    const records = await runAllOf(pool, witness, schedules)
    expect(records.map(record => record.index).sort()).toEqual([0, 1, 2, 3, 4])
    for (const record of records) expect(record.schedule).toEqual(schedules[record.index])
    const pids = new Set(records.map(record => whereRan(record).pid))
    expect(pids.size).toBeLessThanOrEqual(2)
    expect(pids.has(process.pid)).toBe(false)

    // A worker that dies fails the interleaving it was running, naming both; the pool goes on.
    const schedule = ['killer']
    await expect(pool.runOne(killer, schedule)).rejects.toThrow(new RegExp(`^worker process [12] crashed while running ${escape(tokenOf(killer, schedule))}: the process exited with code null$`))
    const after = await pool.runOne(witness, ['where', 'other'])
    expect(after.outcome).toBe('completed')
    pids.add(whereRan(after).pid)

    await pool.close()
    expect([...pids].filter(alive)).toEqual([])
  })

  it('shares out the last tasks of a batch among its workers rather than queueing them behind one', async () => {
    pool = workerPool({ size: 2 })
    const records = await runAllOf(pool, witness, [['where', 'other'], ['other', 'where']])
    expect(new Set(records.map(record => whereRan(record).pid)).size).toBe(2)
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
