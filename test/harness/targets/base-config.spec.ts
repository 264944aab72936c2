/**
 * The base composition takes its config from the scenario (`base:`) on both
 * targets: the agent's model and working directory (the `{{model}}` and
 * `{{cwd}}` prompt variables a real persona uses), SystemPrompt's own keys,
 * and the tool runtime's config.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { loadTarget } from '../../../harness/targets/index.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { targetNames } from '../../../harness/targets/registry.ts'
import type { Projection } from '../../../harness/projection/projection.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const PERSONA = 'You run on {{model}}; your working directory is {{cwd}}.'

async function run(text: string): Promise<{ projection: Projection, dir: string }> {
  const dir = await fixtureDir()
  const scenario = await loadScenario(await dir.write('s.yml', text))
  const result = await runInterleaving(scenario, await loadTarget(scenario.target), ['tool-fs'])
  return { projection: result.projection, dir: dir.root }
}

/** The system prompt text the model saw in the first request, whatever shape the target's request gives it. */
function systemText(projection: Projection): string {
  return JSON.stringify(projection.header)
}

describe.each(targetNames())('base: on the %s target', (target) => {
  const scenario = (base: string) => `app: none
target: ${target}
config:
  persona: '${PERSONA}'
${base}plugins:
  - { id: tool-fs, tools: [read] }
expect: { outcome: completed }
`

  it('fills {{model}} and {{cwd}} from base.agent (cwd resolved against the scenario folder)', async () => {
    const { projection, dir } = await run(scenario('base:\n  agent: { model: deepseek-v4-flash, cwd: ./workspace }\n'))
    expect(projection.outcome).toBe('completed')
    expect(systemText(projection)).toContain(`You run on deepseek-v4-flash; your working directory is ${join(dir, 'workspace')}.`)
  })

  it('leaves {{cwd}} without a value when base.agent gives none: every turn fails', async () => {
    const { projection } = await run(scenario(''))
    expect(projection.outcome).toBe('turn-error')
    expect(projection.errors.turn.join('\n')).toMatch(/cwd/)
  })

  it('passes SystemPrompt keys: includeHarnessIdentity false drops the identity section', async () => {
    const on = await run(scenario('base:\n  agent: { cwd: . }\n'))
    const off = await run(scenario('base:\n  agent: { cwd: . }\n  systemPrompt: { includeHarnessIdentity: false }\n'))
    expect(on.projection.outcome).toBe('completed')
    expect(off.projection.outcome).toBe('completed')
    expect(systemText(off.projection).length).toBeLessThan(systemText(on.projection).length)
    expect(systemText(off.projection)).toContain('You run on')
  })
})

describe('base.tools: the tool runtime\'s config', () => {
  it('reaches dsh-tools: mode both asks for a code runtime the composition does not have', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', `app: none
target: dsh
base:
  tools: { mode: both }
plugins:
  - { id: tool-fs, tools: [read] }
expect: { outcome: completed }
`))
    const native = await runInterleaving({ ...scenario, base: {} }, await loadTarget('dsh'), ['tool-fs'])
    const both = await runInterleaving(scenario, await loadTarget('dsh'), ['tool-fs'])
    expect(native.projection.outcome).toBe('completed')
    expect(both.projection.outcome).toBe('turn-error')
    expect(both.projection.errors.turn.join('\n')).toContain('mode "both" requires a code runtime')
  })

  it('is not something the reference has: such a scenario is skipped there, with the reason', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', 'app: none\nbase:\n  tools: { mode: both }\nplugins:\n  - { id: tool-fs, tools: [read] }\nexpect: { outcome: completed }\n'))
    const report = await sweepScenario(scenario, { strategy: 'auto', budget: 10, seed: '0', workers: 1 }, { runner: inProcessRunner() })
    expect(report.skipped).toBe('the reference tool registry takes no config (base.tools is for the dsh tool runtime)')
  })
})
