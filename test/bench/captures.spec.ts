import { describe, expect, it } from 'vitest'
import { countCaptures } from '../../bench/captures.ts'
import { loaderBoot } from '../../bench/loader-boot.ts'
import { EIGHT_TOOLS } from '../../bench/planted.ts'
import { REAL_APP } from '../../bench/real-app.ts'
import { spaceOfScenario } from '../../harness/explore/declared-space.ts'
import { runInterleaving } from '../../harness/runtime/interleaving.ts'
import { loadScenario } from '../../harness/scenario/load.ts'
import { loadTarget } from '../../harness/targets/index.ts'

/**
 * With the system's stacks intact, every context read cordis answers through
 * its proxy's miss path costs a stack capture. Loadrace's own code makes none
 * in an interleaving: it reads the root's services directly. What is left
 * under `harness/` is the synthetic tool plugins' registration, which reads
 * the injected `tools` service through the plugin's own context, as a system
 * plugin does (so that cordis attributes and disposes the registration). And
 * an interleaving makes no more captures than the real loader's own boot of
 * the same entries.
 */

async function setUp(file: string) {
  const scenario = await loadScenario(file)
  const target = await loadTarget(scenario.target)
  const system = await target.system(scenario.system)
  const order = spaceOfScenario(scenario).chains.flatMap(chain => chain.ops)
  return { scenario, target, context: new system.cordis.Context() as unknown as Parameters<typeof countCaptures>[0], order }
}

describe('stack captures cordis makes for the code that reads a context', () => {
  it('in an interleaving of the synthetic scenario, loadrace\'s own are one `tools` read per tool a plugin registers, and no more in all than the real loader\'s boot', async () => {
    const { scenario, target, context, order } = await setUp(EIGHT_TOOLS)
    const tools = scenario.plugins.flatMap(spec => spec.kind === 'tools' ? spec.batches.flat() : [])
    expect(tools.length).toBeGreaterThan(0)
    const harness = await countCaptures(context, () => runInterleaving(scenario, target, order), 3)
    expect(harness.loadrace).toEqual([
      { site: { prop: 'tools', file: 'harness/targets/reference.ts', caller: expect.stringMatching(/registerTool$/) }, perRun: tools.length },
    ])
    const loader = await countCaptures(context, () => loaderBoot(scenario, target, { kind: 'at-once' }), 3)
    expect(loader.perRun).toBeGreaterThan(tools.length)
    expect(harness.perRun).toBeLessThanOrEqual(loader.perRun)
  })

  it('in an interleaving of the bundled real application, loadrace\'s own are none', async () => {
    const { scenario, target, context, order } = await setUp(REAL_APP)
    const harness = await countCaptures(context, () => runInterleaving(scenario, target, order), 2)
    expect(harness.perRun).toBeGreaterThan(0)
    expect(harness.loadrace).toEqual([])
  })

  it('counts a read from anywhere, names loadrace\'s own by file and caller, and puts the trap back', async () => {
    const { context } = await setUp(EIGHT_TOOLS)
    const handler = (context as unknown as { reflect: { constructor: { handler: { get: unknown } } } }).reflect.constructor.handler
    const trap = handler.get
    const ctx = context as unknown as Record<string, unknown>
    const count = await countCaptures(context, async () => {
      // Missing properties: cordis builds its Error for each (a root's fiber has no runtime, so the read answers undefined).
      void ctx.notAService
      void ctx.notAServiceEither
      // Own and special properties: no capture.
      void ctx.reflect
      void ctx._private
    }, 2)
    expect(count).toEqual({ perRun: 2, loadrace: [] })
    expect(handler.get).toBe(trap)
  })
})
