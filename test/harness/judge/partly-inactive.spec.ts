/**
 * An entry inactive in some interleavings and active in others is part of the
 * divergence (which entry fails may depend on the order), reported there with
 * its counts; `expect.inactive` lists entries inactive in every interleaving.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner, type Runner } from '../../../harness/runners/runner.ts'
import { workerPool } from '../../../harness/runners/worker-pool.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/**
 * Two plugins register the same tool name; the reference's registry refuses
 * the second, so whichever of p-a and p-b comes second fails to apply. With a
 * third, independent entry there are 3! = 6 orders: p-a comes after p-b in
 * half of them, so each of the two is inactive in 3 of 6.
 */
function duplicateName(expectBlock: string): string {
  return `name: duplicate-name
app: none
plugins:
  - id: p-a
    tools: [shared]
  - id: p-b
    tools: [shared]
  - id: tool-c
    tools: [c]
expect:
  outcome: load-error
${expectBlock}`
}

async function sweepText(text: string, runner: Runner) {
  const dir = await fixtureDir()
  const scenario = await loadScenario(await dir.write('s.yml', text))
  return sweepScenario(scenario, { strategy: 'exhaustive', budget: 720, seed: '0', workers: 1 }, { runner })
}

const RUNNERS: [string, () => Runner][] = [['in process', () => inProcessRunner()], ['on worker threads', () => workerPool({ size: 2 })]]

describe.each(RUNNERS)('an entry inactive in some interleavings only (%s)', (_, makeRunner) => {
  it('is part of the divergence, with its counts: the race passes with deterministic: false and no expect.inactive', async () => {
    const runner = makeRunner()
    try {
      const report = await sweepText(duplicateName('  deterministic: false\n'), runner)
      expect(report.explored).toBe(6)
      expect(report.verdict).toBe('divergent')
      expect(report.problems).toEqual([])
      expect(report.passed).toBe(true)
      expect(report.divergence?.blame.slice().sort()).toEqual(['p-a', 'p-b'])
      expect(report.divergence?.partlyInactive).toEqual([{ id: 'p-a', inactive: 3, of: 6 }, { id: 'p-b', inactive: 3, of: 6 }])
    } finally {
      await runner.close()
    }
  })

  it('listed under expect.inactive, it fails: expect.inactive means inactive in every interleaving', async () => {
    const runner = makeRunner()
    try {
      const report = await sweepText(duplicateName('  deterministic: false\n  inactive: [p-a, p-b]\n'), runner)
      expect(report.passed).toBe(false)
      expect(report.problems).toHaveLength(2)
      for (const [index, id] of ['p-a', 'p-b'].entries()) {
        expect(report.problems[index]).toMatch(new RegExp(`^expected entry ${id} to stay inactive in every interleaving, but it became active in 3 of 6 \\(first duplicate-name@canonical:[^)]+\\); `
          + 'an entry inactive in some interleavings only is part of the divergence: remove it from expect.inactive$'))
      }
    } finally {
      await runner.close()
    }
  })

  it('expected deterministic, the scenario fails on the divergence alone, never on "never became active"', async () => {
    const runner = makeRunner()
    try {
      const report = await sweepText(duplicateName(''), runner)
      expect(report.verdict).toBe('divergent')
      expect(report.problems).toEqual([expect.stringMatching(/^interleavings differ in errors \(content\): swapping p-[ab] and p-[ab] changes the bytes$/)])
    } finally {
      await runner.close()
    }
  })
})

describe('an entry inactive in every interleaving', () => {
  it('"never became active" counts every interleaving that booted, also in a scenario that diverges', async () => {
    // p-c waits for a service nobody provides: inactive in all 24 orders, while p-a and p-b race as above.
    const text = duplicateName('  deterministic: false\n').replace('expect:', '  - id: p-c\n    tools: [waits]\n    inject: [nowhere]\nexpect:')
    const report = await sweepText(text, inProcessRunner())
    expect(report.explored).toBe(24)
    expect(report.problems).toEqual([
      expect.stringMatching(/^entry p-c \(waiting for service: nowhere\) never became active \(24 of 24 interleavings, first duplicate-name@canonical:[^)]+\); list it under expect.inactive if that is intended$/),
    ])
    expect(report.divergence?.partlyInactive).toEqual([{ id: 'p-a', inactive: 12, of: 24 }, { id: 'p-b', inactive: 12, of: 24 }])
    const listed = await sweepText(text.replace('  deterministic: false\n', '  deterministic: false\n  inactive: [p-c]\n'), inProcessRunner())
    expect(listed.problems).toEqual([])
  })
})
