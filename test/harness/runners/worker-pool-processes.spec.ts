import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import type { Scenario } from '../../../harness/scenario/types.ts'
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

  it('runs more interleavings than it has workers, each once, on at most its size of processes, and close ends them', async () => {
    pool = workerPool({ size: 2 })
    const schedules = [['where', 'other'], ['other', 'where'], ['where', 'other'], ['other', 'where'], ['where', 'other']]
    const records = await runAllOf(pool, witness, schedules)
    expect(records.map(record => record.index).sort()).toEqual([0, 1, 2, 3, 4])
    for (const record of records) expect(record.schedule).toEqual(schedules[record.index])
    const pids = [...new Set(records.map(record => whereRan(record).pid))]
    expect(pids.length).toBeGreaterThanOrEqual(1)
    expect(pids.length).toBeLessThanOrEqual(2)
    expect(pids).not.toContain(process.pid)
    await pool.close()
    expect(pids.filter(alive)).toEqual([])
  })

  it('fails the interleaving a crashed worker was running, naming the worker and the interleaving, and goes on with a new worker', async () => {
    pool = workerPool({ size: 1 })
    const schedule = ['killer']
    await expect(pool.runOne(killer, schedule)).rejects.toThrow(`worker process 1 crashed while running ${tokenOf(killer, schedule)}: the process exited with code null`)
    const record = await pool.runOne(witness, ['where', 'other'])
    expect(record.outcome).toBe('completed')
    await pool.close()
    expect(alive(whereRan(record).pid)).toBe(false)
  })
})
