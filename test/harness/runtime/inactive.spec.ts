/**
 * Nothing silently inactive: an entry whose plugin never became active is
 * part of the projection and fails the scenario unless `expect.inactive`
 * lists it; the message names the entry and the services it waits for.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 720, seed: '0', workers: 1 }

/** A tool plugin that also needs a service nobody in the scenario provides. */
const NEEDS_INDEX = `export const name = 'needs-index'
export const inject = ['tools', 'searchIndex']
export function apply(ctx) {
  ctx.tools.register({ name: 'search', description: 'search', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
}
`

async function scenarioWith(dir: FixtureDir, expect: string): Promise<string> {
  await dir.write('needs-index.mjs', NEEDS_INDEX)
  return dir.write('s.yml', `app: none
plugins:
  - { id: tool-fs, tools: [read] }
  - { id: search, module: ./needs-index.mjs }
expect:
${expect}`)
}

describe('an entry waiting for a service that never appears', () => {
  it('fails the sweep naming the entry and the services it waits for (its tool is simply absent from the header)', async () => {
    const dir = await fixtureDir()
    const report = await sweepScenario(await loadScenario(await scenarioWith(dir, '  outcome: completed\n')), OPTIONS, { runner: inProcessRunner() })
    expect(report.verdict).toBe('deterministic')
    expect(report.outputs.map(output => output.tools)).toEqual([['read']])
    expect(report.passed).toBe(false)
    expect(report.problems).toEqual([
      'entry search (waiting for service: searchIndex) never became active (2 of 2 interleavings, first s@canonical:tool-fs,search); list it under expect.inactive if that is intended',
    ])
  })

  it('passes when expect.inactive lists it', async () => {
    const dir = await fixtureDir()
    const report = await sweepScenario(await loadScenario(await scenarioWith(dir, '  outcome: completed\n  inactive: [search]\n')), OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.passed).toBe(true)
  })

  it('records why, in the projection', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await scenarioWith(dir, '  outcome: completed\n  inactive: [search]\n'))
    const result = await runInterleaving(scenario, referenceTarget, ['search', 'tool-fs'])
    expect(result.projection.inactive).toEqual([{ id: 'search', reason: 'waiting', waiting: ['searchIndex'] }])
  })
})

describe('inactive entries are compared', () => {
  it('an entry active in some interleavings only is a divergence in the inactive part', async () => {
    const dir = await fixtureDir()
    // Provides `index` only when the tool `read` is already registered; `uses-index` contributes nothing the model sees.
    await dir.write('maybe-index.mjs', `export const name = 'maybe-index'
export const inject = ['tools']
export function apply(ctx) { if (ctx.tools.get('read')) ctx.provide('index', {}) }
`)
    await dir.write('uses-index.mjs', "export const name = 'uses-index'\nexport const inject = ['index']\nexport function apply() {}\n")
    const file = await dir.write('s.yml', `app: none
plugins:
  - { id: tool-fs, tools: [read] }
  - { id: maybe-index, module: ./maybe-index.mjs }
  - { id: uses-index, module: ./uses-index.mjs }
expect: { outcome: completed, deterministic: false }
`)
    const report = await sweepScenario(await loadScenario(file), OPTIONS, { runner: inProcessRunner() })
    expect(report.verdict).toBe('divergent')
    expect(report.divergence?.part).toBe('inactive')
    expect(report.divergence?.blame.slice().sort()).toEqual(['maybe-index', 'tool-fs'])
  })
})
