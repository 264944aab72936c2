import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import * as loadrace from '../../harness/index.ts'
import * as reference from '../../src/index.ts'

describe('public facades', () => {
  it('harness/index.ts sweeps a scenario, and its token replays to the reported bytes', async () => {
    const [scenario] = await loadrace.loadScenarios(['scenarios/ci-flake.yml'])
    const report = await loadrace.sweep([scenario!], { strategy: 'auto', budget: loadrace.DEFAULT_BUDGET, seed: '0', workers: 1 }, { runner: loadrace.inProcessRunner() })
    expect(report.scenarios[0]).toMatchObject({ name: 'ci-flake', verdict: 'deterministic', guarantee: 'exhaustive' })
    const output = report.scenarios[0]!.outputs[0]!
    const replay = await loadrace.runInterleaving(scenario!, await loadrace.loadTarget('reference'), loadrace.parseToken(output.token).schedule)
    expect(replay.hash).toBe(output.hash)
  })

  it('src/index.ts mounts the reference and assembles the canonical order', async () => {
    const root = new Context()
    reference.mountReference(root, { config: { toolOrder: ['zulu', reference.TOOL_ORDER_REST] } })
    await reference.whenActive(root, 'tools')
    await root.plugin({ inject: ['tools'], apply: (ctx: Context) => { for (const name of ['mike', 'zulu', 'alpha']) ctx.tools.register({ name, description: name, parameters: {} }) } })
    const assembly = await root.systemPrompt.assemble()
    expect(assembly.tools.map(tool => tool.name)).toEqual(['zulu', 'alpha', 'mike'])
  })
})
