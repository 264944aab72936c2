import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inProcessRunner, replayableSchedule, type InterleavingRecord } from '../../../harness/runners/runner.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

let racing: Scenario
let waiting: Scenario
beforeAll(async () => {
  const dir = await fixtureDir()
  racing = await loadScenario(await dir.write('racing.yml', 'app: none\nvariant: registration-order\nplugins:\n  - { id: a, tools: [a] }\n  - { id: b, tools: [b] }\nexpect:\n  outcome: completed\n  deterministic: false\n'))
  // `late` injects a service nobody provides: its import completes, but it never applies, so the gap before its second batch is never requested.
  waiting = await loadScenario(await dir.write('waiting.yml', 'app: none\nplugins:\n  - { id: a, tools: [a] }\n  - { id: late, inject: [nobody], batches: [[late], [later]] }\nexpect:\n  outcome: completed\n'))
})
afterAll(removeFixtureDirs)

describe('a replayable schedule', () => {
  it('is the effective order, then the operations never released, in planned order', () => {
    expect(replayableSchedule({ schedule: ['b', 'a'], unreached: ['c', 'c#2'] })).toEqual(['b', 'a', 'c', 'c#2'])
    expect(replayableSchedule({ schedule: ['a'], unreached: [] })).toEqual(['a'])
  })
})

describe('the in-process runner', () => {
  it('runs every schedule, reporting each with its position, and the bytes of each output once', async () => {
    const runner = inProcessRunner()
    const records: InterleavingRecord[] = []
    await runner.runAll(racing, [['a', 'b'], ['b', 'a'], ['a', 'b']], record => { records.push(record) })
    expect(records.map(record => [record.index, record.schedule.join(','), record.tools.join(','), record.outcome])).toEqual([
      [0, 'a,b', 'a,b', 'completed'],
      [1, 'b,a', 'b,a', 'completed'],
      [2, 'a,b', 'a,b', 'completed'],
    ])
    expect(records[2]!.hash).toBe(records[0]!.hash)
    expect(records.map(record => record.json === undefined)).toEqual([false, false, true])
    expect(JSON.parse(records[0]!.json!)).toBeTypeOf('object')
    await runner.close()
  })

  it('starts no schedule once its signal is aborted', async () => {
    const controller = new AbortController()
    const records: InterleavingRecord[] = []
    await inProcessRunner().runAll(racing, [['a', 'b'], ['b', 'a']], (record) => {
      records.push(record)
      controller.abort()
    }, controller.signal)
    expect(records.map(record => record.index)).toEqual([0])
  })

  it('runs one schedule with its bytes, and names what was never released', async () => {
    const record = await inProcessRunner().runOne(waiting, ['late', 'late#2', 'a'])
    expect(record.index).toBe(-1)
    expect(record.schedule).toEqual(['late', 'a'])
    expect(record.unreached).toEqual(['late#2'])
    expect(replayableSchedule(record)).toEqual(['late', 'a', 'late#2'])
    expect(record.json).toBeTypeOf('string')
    expect(record.runtime?.node).toBe(process.version)
  })
})
