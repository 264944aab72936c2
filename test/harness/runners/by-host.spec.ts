import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentHostOnly, runnersFor } from '../../../harness/runners/by-host.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { CURRENT_HOST, parseHost } from '../../../harness/hosts/host.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { alive, whereRan, witnessScenario } from '../../support/process-witness.ts'

let scenario: Scenario
beforeAll(async () => { scenario = await witnessScenario() })
afterAll(removeFixtureDirs)

const ORDER = ['where', 'other']

describe('the runners of a sweep, by host', () => {
  it('run on this process for one worker, and start each runner once per host name', async () => {
    const runners = runnersFor({ workers: 1 })
    const runner = runners.of(CURRENT_HOST)
    expect(runners.of(parseHost('current'))).toBe(runner)
    expect(whereRan(await runner.runOne(scenario, ORDER)).pid).toBe(process.pid)
    await runners.close()
  })

  it('run in worker processes for more workers, and on another host always in a child with that host\'s environment; close ends them all', async () => {
    const runners = runnersFor({ workers: 2 })
    const paris = parseHost('tz:Europe/Paris')
    const [here, there] = await Promise.all([runners.of(CURRENT_HOST).runOne(scenario, ORDER), runners.of(paris).runOne(scenario, ORDER)])
    expect(runners.of(paris)).not.toBe(runners.of(CURRENT_HOST))
    const pids = [whereRan(here).pid, whereRan(there).pid]
    expect(pids).not.toContain(process.pid)
    expect(pids[0]).not.toBe(pids[1])
    expect(whereRan(there).zone).toBe('Europe_Paris')
    await runners.close()
    expect(pids.filter(alive)).toEqual([])
  })
})

describe('runners for the current host only', () => {
  it('hand out the given runner for this host, and refuse any other host by name', async () => {
    const runner = inProcessRunner()
    const runners = currentHostOnly(runner)
    expect(runners.of(CURRENT_HOST)).toBe(runner)
    expect(() => runners.of(parseHost('node22+locale:tr-TR'))).toThrow('no runner for host node22+locale:tr-TR: only current is available here')
    await runners.close()
  })
})
