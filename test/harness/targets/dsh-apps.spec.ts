/**
 * The bundled real-application scenarios (apps/) on the published dsh rc.8
 * packages: the tool set of dsh's ACP agent equals the tool schemas dsh's own
 * rc.8 snapshots pin, and the advanced tool chain races on two prompt
 * sections of equal order. The sweeps themselves run in .ci/run.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { loadTarget } from '../../../harness/targets/index.ts'
import { kindOf } from '../../../harness/oracle/compare.ts'
import { movedContributions } from '../../../harness/oracle/moved.ts'
import type { Scenario } from '../../../harness/scenario/scenario.ts'
import { parseHost } from '../../../harness/hosts/host.ts'
import { runnersFor } from '../../../harness/runners/by-host.ts'
import { onHost } from '../../../harness/scenario/overrides.ts'
import { parseProjection } from '../../../harness/projection/projection.ts'

/** The advanced chain runs on Node 22 (its code runtime needs it): a worker process on that host. */
const runners = runnersFor({ workers: 1 })
afterAll(() => runners.close())

/** Runs one interleaving of a scenario on the host its file names, in a worker process there. */
async function runOnItsHost(scenario: Scenario, schedule: readonly string[]) {
  const host = parseHost(scenario.host!)
  const record = await runners.of(host).runOne(onHost(scenario, host), schedule)
  return { projection: parseProjection(record.json), contributions: record.contributions }
}

interface ToolSchema { name: string }

/** The `initial` tool list of a dsh rc.8 snapshot (see test/fixtures/dsh-rc.8/README.md). */
async function snapshotTools(name: string): Promise<ToolSchema[]> {
  const text = await readFile(new URL(`../../fixtures/dsh-rc.8/${name}.tool-schemas.expected.json`, import.meta.url), 'utf8')
  return (JSON.parse(text) as { initial: ToolSchema[] }).initial
}

async function run(scenario: Scenario, schedule: readonly string[]) {
  return runInterleaving(scenario, await loadTarget(scenario.target), schedule)
}

function headerTools(header: unknown): ToolSchema[] {
  return (header as { tools: ToolSchema[] }).tools
}

/** The scenario's operations in file order, with `moved` taken out and put right after `after`. */
function moving(scenario: Scenario, moved: readonly string[], after: string): string[] {
  const rest = scenario.plugins.map(plugin => plugin.id).filter(id => !moved.includes(id))
  const at = rest.indexOf(after) + 1
  return [...rest.slice(0, at), ...moved, ...rest.slice(at)]
}

describe('apps/acp-agent/tools.yml: the tool set of examples/acp-agent/cordis.yml at rc.8', () => {
  it('gives the 19 tools of the rc.8 text-turn snapshot, names, order and schemas byte for byte', async () => {
    const scenario = await loadScenario('apps/acp-agent/tools.yml')
    const expected = await snapshotTools('text-turn')
    expect(scenario.expect.tools).toEqual(expected.map(tool => tool.name))
    const result = await run(scenario, scenario.plugins.map(plugin => plugin.id))
    expect(result.projection.outcome).toBe('completed')
    expect(result.projection.inactive).toEqual([])
    expect(JSON.stringify(headerTools(result.projection.header))).toBe(JSON.stringify(expected))
  })
})

describe('apps/acp-agent/advanced-toolchain.yml: the advanced tool chain at rc.8', () => {
  it('gives the rc.8 advanced-toolchain snapshot\'s 27 tools byte for byte, run_code included, on Node 22', async () => {
    const scenario = await loadScenario('apps/acp-agent/advanced-toolchain.yml')
    expect(scenario.host).toBe('node22')
    const expected = await snapshotTools('advanced-toolchain')
    expect(expected).toHaveLength(27)
    expect(expected.map(tool => tool.name)).toContain('run_code')
    const result = await runOnItsHost(scenario, scenario.plugins.map(plugin => plugin.id))
    expect(result.projection.outcome).toBe('completed')
    expect(JSON.stringify(headerTools(result.projection.header))).toBe(JSON.stringify(expected))
  })

  it('orders the two order-115 sections by which plugin registered first: the same tools, the prompt reordered', async () => {
    const scenario = await loadScenario('apps/acp-agent/advanced-toolchain.yml')
    const workflowFirst = await runOnItsHost(scenario, scenario.plugins.map(plugin => plugin.id))
    const cordisFirst = await runOnItsHost(scenario, moving(scenario, ['base.cordis-host-runner', 'base.tool-cordis'], 'base'))
    const system = (header: unknown) => (header as { system: string }).system
    expect(workflowFirst.projection.outcome).toBe('completed')
    expect(cordisFirst.projection.outcome).toBe('completed')
    expect(headerTools(cordisFirst.projection.header)).toEqual(headerTools(workflowFirst.projection.header))
    expect(system(cordisFirst.projection.header)).not.toBe(system(workflowFirst.projection.header))
    expect(kindOf(workflowFirst.projection.header, cordisFirst.projection.header)).toBe('order')
    expect(movedContributions(workflowFirst.contributions, cordisFirst.contributions)).toEqual([
      { kind: 'section', name: 'tool:workflow', owner: 'base.tool-workflow' },
      { kind: 'section', name: 'tool:cordis', owner: 'base.tool-cordis' },
    ])
    // The base's own section is attributed with its order too (dsh-tools' SDK_SECTION_ORDER, 150): the probe is
    // in place before the first registration, not a microtask after its service appears.
    expect(workflowFirst.contributions?.sections.find(section => section.name === 'tools:sdk')).toEqual({ kind: 'section', name: 'tools:sdk', owner: '(base)', order: 150 })
    // The rc.8 advanced-toolchain snapshot pins the workflow section first: one of the two orders.
    const workflowAt = (text: string) => text.indexOf('Use the workflow tool ONLY')
    const cordisAt = (text: string) => text.indexOf('# Dynamic Cordis Plugins')
    expect(workflowAt(system(workflowFirst.projection.header))).toBeLessThan(cordisAt(system(workflowFirst.projection.header)))
    expect(workflowAt(system(cordisFirst.projection.header))).toBeGreaterThan(cordisAt(system(cordisFirst.projection.header)))
  })
})
