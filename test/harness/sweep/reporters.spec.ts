import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweep } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import type { Reporter } from '../../../harness/report/reporter.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'

const base = { strategy: 'auto' as const, budget: 4, seed: '0', workers: 1 }

/** A reporter that writes down every hook called on it, one line each (progress once per scenario, at its last count). */
function recorder(): Reporter & { calls: string[], judged: ScenarioReport[] } {
  const calls: string[] = []
  const judged: ScenarioReport[] = []
  return {
    calls,
    judged,
    onStart: names => calls.push(`start ${names.join(',')}`),
    onScenarioStart: scenario => calls.push(`scenario ${scenario.name}`),
    onProgress: (scenario, explored, planned) => {
      const line = `progress ${scenario.name}`
      if (calls.at(-1)?.startsWith(line) === true) calls.pop()
      calls.push(`${line} ${explored}/${planned}`)
    },
    onScenarioJudged: (entry) => {
      judged.push(entry)
      calls.push(`judged ${entry.name} ${entry.verdict}`)
    },
    onInterrupted: reason => calls.push(`interrupted ${reason}`),
    onEnd: (report, written) => { calls.push(`end ${report.scenarios.length} complete=${report.complete} written=${written.length}`) },
  }
}

describe('a sweep tells the reporters it is given', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadrace-reporters-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('calls each hook in order with the judged scenarios, and writes a reporter\'s file before its end', async () => {
    const scenarios = [await loadScenario('scenarios/ci-flake.yml'), await loadScenario('scenarios/shared-name-stable-sort.yml')]
    const listener = recorder()
    const names: string[] = []
    const file: Reporter = { file: { dir, name: 'names.txt', render: report => report.scenarios.map(entry => entry.name).join('\n') } }
    const lister: Reporter = { onEnd: (_, written) => { names.push(...written) } }
    const report = await sweep(scenarios, base, { runner: inProcessRunner(), reporters: [listener, file, lister] })
    expect(listener.calls).toEqual([
      'start ci-flake,shared-name-stable-sort',
      'scenario ci-flake',
      'progress ci-flake 2/2',
      'judged ci-flake deterministic',
      'scenario shared-name-stable-sort',
      expect.stringMatching(/^progress shared-name-stable-sort (\d+)\/\1$/),
      'judged shared-name-stable-sort deterministic',
      'end 2 complete=true written=1',
    ])
    expect(listener.judged).toEqual(report.scenarios)
    expect(names).toEqual([join(dir, 'names.txt')])
    expect(await readFile(join(dir, 'names.txt'), 'utf8')).toBe('ci-flake\nshared-name-stable-sort')
  })

  it('says why it stopped early: at the first failure under bail, or at a signal', async () => {
    const scenarios = [await loadScenario('scenarios/ci-flake.yml'), await loadScenario('scenarios/shared-name-stable-sort.yml')]
    const bailing = recorder()
    await sweep(scenarios, { ...base, variant: 'registration-order' }, { runner: inProcessRunner(), bail: true, reporters: [bailing] })
    expect(bailing.calls.filter(call => !call.startsWith('progress'))).toEqual([
      'start ci-flake,shared-name-stable-sort',
      'scenario ci-flake',
      'judged ci-flake divergent',
      'interrupted bail',
      'end 1 complete=false written=0',
    ])
    const stopped = recorder()
    await sweep(scenarios, base, { runner: inProcessRunner(), signal: AbortSignal.abort(), reporters: [stopped] })
    expect(stopped.calls).toEqual(['start ci-flake,shared-name-stable-sort', 'interrupted interrupted', 'end 0 complete=false written=0'])
  })
})
