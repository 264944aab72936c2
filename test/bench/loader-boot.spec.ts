import { describe, expect, it } from 'vitest'
import { loaderBoot } from '../../bench/loader-boot.ts'
import { EIGHT_TOOLS } from '../../bench/planted.ts'
import { REAL_APP } from '../../bench/real-app.ts'
import { runInterleaving } from '../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import { spaceOfScenario } from '../../harness/explore/declared-space.ts'
import { loadTarget } from '../../harness/targets/index.ts'

/**
 * The floor the bench judges the harness against must boot the very system the
 * harness boots: the real loader without the scheduler reaches the harness's
 * projection bytes, with every import at once and with imports one by one.
 */
describe('the real loader\'s own boot', () => {
  it.each([
    ['the synthetic eight-tools scenario (reference target, entries in memory)', EIGHT_TOOLS],
    ['the bundled real application (dsh target, its cordis.yml through cordis:include)', REAL_APP],
  ])('reaches the harness\'s bytes: %s', async (_name, file) => {
    const scenario = await loadScenario(file)
    const target = await loadTarget(scenario.target)
    const order = spaceOfScenario(scenario).chains.flatMap(chain => chain.ops)
    const harness = await runInterleaving(scenario, target, order)
    expect(harness.projection.outcome).toBe('completed')
    expect(await loaderBoot(scenario, target, { kind: 'at-once' }, true)).toBe(harness.json)
    expect(await loaderBoot(scenario, target, { kind: 'one-by-one', order: scenario.plugins.map(spec => spec.id) }, true)).toBe(harness.json)
    // Without `project` it only boots.
    expect(await loaderBoot(scenario, target, { kind: 'at-once' })).toBeUndefined()
  })

  it('names an import the loader never asks for instead of waiting forever', async () => {
    const scenario = await loadScenario(EIGHT_TOOLS)
    const target = await loadTarget(scenario.target)
    await expect(loaderBoot(scenario, target, { kind: 'one-by-one', order: ['no-such-entry'], waitMs: 200 })).rejects.toThrow('the loader never asked for "no-such-entry"')
  })
})
