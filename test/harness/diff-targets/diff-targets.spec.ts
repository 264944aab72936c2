import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { viewDifferences } from '../../../harness/diff-targets/compare.ts'
import { NORMALISATIONS, normalise } from '../../../harness/diff-targets/normalisations.ts'
import { DSH_IDENTITY_TEXT } from '../../../harness/targets/dsh/definition.ts'
import { targetNamed } from '../../../harness/targets/registry.ts'
import { comparisonRows, differenceText, renderDiffMarkdown } from '../../../harness/diff-targets/render.ts'
import { compareScenario, diffTargets, skippedPairs, type TargetDiffSettings } from '../../../harness/diff-targets/run.ts'
import type { TargetDiffReport } from '../../../harness/diff-targets/target-diff-report.ts'
import { COMPARED_PARTS, comparedView } from '../../../harness/diff-targets/view.ts'
import { writeTargetDiffReport } from '../../../harness/diff-targets/write.ts'
import { MATRIX_BUDGET } from '../../../harness/settings/defaults.ts'
import { type Projection, parseProjection } from '../../../harness/projection/projection.ts'
import { loadScenario, loadScenarios } from '../../../harness/scenario/load.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { withOverrides } from '../../../harness/scenario/overrides.ts'
import { MOCK_MODEL } from '../../../harness/targets/dsh/mock-adapter.ts'
import type { TargetName } from '../../../harness/targets/target.ts'
import { HARNESS_IDENTITY_TEXT } from '../../../src/system-prompt/service.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

const runner = inProcessRunner()
const settings: TargetDiffSettings = { strategy: 'auto', budget: MATRIX_BUDGET, seed: '0', workers: 1 }

afterAll(removeFixtureDirs)

/** The projection of one interleaving of a bundled scenario on `target`. */
async function projectionOf(file: string, target: TargetName, schedule: string[]): Promise<Projection> {
  const scenario = withOverrides(await loadScenario(file), { target })
  return parseProjection((await runner.runOne(scenario, schedule)).json)
}

describe('diff-targets over the bundled scenarios', () => {
  it('finds no difference between the reference and the published dsh packages, and says what it skipped', async () => {
    const scenarios = await loadScenarios(['scenarios'])
    const report = await diffTargets(scenarios, settings, { runner })
    const differing = report.compared.filter(comparison => comparison.differences.length > 0)
    expect(differing.map(comparison => [comparison.scenario, comparison.differences.map(difference => differenceText(difference, report.targets))])).toEqual([])
    expect(report.complete).toBe(true)
    expect(report.summary.differing).toBe(0)
    // Every scenario is either compared or skipped with a reason, and only dsh ever skips.
    expect(report.compared.length + report.summary.skipped).toBe(scenarios.length)
    expect(new Set(report.skipped.map(pair => pair.target))).toEqual(new Set(['dsh']))
    for (const pair of report.skipped) expect(pair.reason).not.toBe('')
    expect(report.skipped.find(pair => pair.scenario === 'registration-order-policy')?.reason).toContain('canonical policy')
    expect(report.skipped.find(pair => pair.scenario === 'forwarding-stdio-agent')?.reason).toContain('app chain')
    // The comparison covers multi-turn requests, misconfigurations, faults, stuck runs and the residual races.
    const comparedNames = report.compared.map(comparison => comparison.scenario)
    expect(comparedNames).toEqual(expect.arrayContaining([
      'ci-flake', 'multi-turn-invariant', 'unknown-tool-order-name', 'reserved-tool-name', 'tool-order-empty', 'listeners-non-commuting',
      'shared-tool-name', 'shared-name-stable-sort', 'apply-throws', 'apply-hangs',
    ]))
    for (const comparison of report.compared) {
      expect(comparison.explored[1], comparison.scenario).toBe(comparison.explored[0])
      expect(comparison.compared, comparison.scenario).toBeGreaterThanOrEqual(1)
    }
    // A race is compared on each of its outputs.
    expect(report.compared.find(comparison => comparison.scenario === 'shared-tool-name')?.compared).toBe(2)
  }, 240_000)

  it('skippedPairs asks each target, with the scenario as it would run there', async () => {
    expect(await skippedPairs(await loadScenario('scenarios/ci-flake.yml'))).toEqual([])
    const [pair, ...rest] = await skippedPairs(await loadScenario('scenarios/weights-distinct.yml'))
    expect(rest).toEqual([])
    expect(pair).toMatchObject({ scenario: 'weights-distinct', target: 'dsh', reason: 'the published packages implement only the canonical policy' })
    // What the machine lacks of the scenario's requires: skips it on both targets.
    const flake = await loadScenario('scenarios/ci-flake.yml')
    const lacking = await skippedPairs({ ...flake, requires: { commands: ['loadrace-no-such-command-7f3a'], platforms: [] } })
    expect(lacking.map(item => [item.target, item.reason])).toEqual(['reference', 'dsh'].map(target => [target, 'it requires loadrace-no-such-command-7f3a on PATH, and it is not found there']))
  })
})

describe('every part of the projection is compared', () => {
  let base: Projection
  let failed: Projection
  let stuck: Projection

  beforeAll(async () => {
    base = await projectionOf('scenarios/multi-turn-invariant.yml', 'reference', ['tool-zulu', 'tool-alpha', 'tool-mike'])
    failed = await projectionOf('scenarios/unknown-tool-order-name.yml', 'reference', ['tool-alpha', 'tool-beta'])
    stuck = await projectionOf('scenarios/faults/apply-hangs.yml', 'reference', ['tool-alpha', 'tool-hangs'])
  })

  /** The paths at which a copy of `projection`, changed by `change`, differs from it. */
  function pathsAfter(projection: Projection, change: (copy: Projection) => void): string[] {
    const copy = structuredClone(projection)
    change(copy)
    return viewDifferences(comparedView(projection, 'reference'), comparedView(copy, 'reference')).map(difference => `${difference.kind} ${difference.path}`)
  }

  type Tools = { tools: { name: string, description: string, parameters: Record<string, unknown> }[] }
  type Request = { messages: Record<string, unknown>[], tools: unknown[] }
  const header = (p: Projection) => p.header as Tools
  const request = (p: Projection, i: number) => p.requests[i] as Request
  const reorderKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).reverse())

  it.each([
    ['header: a tool description', (p: Projection) => { header(p).tools[1]!.description = 'other' }, ['value header.tools[1].description']],
    ['header: tool parameters', (p: Projection) => { header(p).tools[0]!.parameters = { type: 'object' } }, ['missing header.tools[0].parameters.properties']],
    ['header: the key order of a tool', (p: Projection) => { header(p).tools[0] = reorderKeys(header(p).tools[0]!) as Tools['tools'][number] }, ['key-order header.tools[0]']],
    ['header: the tool order', (p: Projection) => { header(p).tools.reverse() }, ['value header.tools[0].name', 'value header.tools[0].description', 'value header.tools[2].name', 'value header.tools[2].description']],
    ['requests: a message of a later request', (p: Projection) => { request(p, 2).messages[1]!.id = 'id-99' }, ['value requests[2].messages[1].id']],
    ['requests: the key order of a request', (p: Projection) => { p.requests[0] = reorderKeys(p.requests[0] as Record<string, unknown>) }, ['key-order requests[0]']],
    ['requests: one dropped', (p: Projection) => { p.requests.pop() }, ['missing requests[2]']],
    ['requests: the tools of one', (p: Projection) => { request(p, 1).tools.reverse() }, ['value requests[1].tools[0].name', 'value requests[1].tools[0].description', 'value requests[1].tools[2].name', 'value requests[1].tools[2].description']],
    ['events: one type', (p: Projection) => { (p.events[3] as { type: string }).type = 'step/other' }, ['value eventTypes[3]']],
    ['events: one dropped', (p: Projection) => { p.events.splice(3, 1) }, expect.arrayContaining(['value eventTypes[3]'])],
    ['statuses: their order', (p: Projection) => { p.live.reverse() }, expect.arrayContaining(['value live[0].status'])],
    ['outcome', (p: Projection) => { p.outcome = 'turn-error' }, ['value outcome']],
  ] as const)('%s', (_name, change, paths) => {
    expect(pathsAfter(base, change)).toEqual(paths)
  })

  it('errors: agent/error records and messages in order, load errors in order', () => {
    expect(pathsAfter(failed, p => { p.errors.turn[1] = 'another message' })).toEqual(['value errors.turn[1]'])
    expect(pathsAfter(failed, p => { (p.live[1] as { step: number }).step = 1 })).toEqual(['value live[1].step'])
    expect(pathsAfter(failed, p => { p.errors.load.push('late load error') })).toEqual(['missing errors.load[0]'])
    expect(pathsAfter(failed, p => { p.errors.load = ['b', 'a'] })).toEqual(['missing errors.load[0]', 'missing errors.load[1]'])
    const loaded = { ...failed, errors: { load: ['a', 'b'], turn: failed.errors.turn } }
    expect(pathsAfter(loaded, p => { p.errors.load.reverse() })).toEqual(['value errors.load[0]', 'value errors.load[1]'])
  })

  it('stuck state: why, where, and what the run waited for', () => {
    expect(stuck.stuck).not.toBeNull()
    expect(pathsAfter(stuck, p => { p.stuck!.waiting[0] = 'tool-other' })).toEqual(['value stuck.waiting[0]'])
    expect(pathsAfter(stuck, p => { p.stuck!.waiting.push('tool-other') })).toEqual([`missing stuck.waiting[${stuck.stuck!.waiting.length}]`])
    expect(pathsAfter(stuck, p => { p.stuck!.phase = p.stuck!.phase === 'boot' ? 'turns' : 'boot' })).toEqual(['value stuck.phase'])
  })

  it('the crash: its kind, entry and exit code', async () => {
    const dir = await fixtureDir()
    await dir.write('exit.mjs', 'export default { name: \'exit\', apply() { process.exit(7) } }\n')
    const file = await dir.write('s.yml', 'app: none\nplugins:\n  - { id: tool-alpha, tools: [alpha] }\n  - { id: exit, module: ./exit.mjs }\nexpect:\n  outcome: crashed\n')
    const crashed = await projectionOf(file, 'reference', ['tool-alpha', 'exit'])
    expect(crashed.crash).toEqual({ kind: 'exit', entry: 'exit', code: 7 })
    expect(pathsAfter(crashed, p => { p.crash!.code = 3 })).toEqual(['value crash.code'])
    expect(pathsAfter(crashed, p => { p.crash!.entry = 'tool-alpha' })).toEqual(['value crash.entry'])
    expect(pathsAfter(base, p => { p.crash = { kind: 'exit', entry: null, code: 0 } })).toEqual(['value crash'])
  })

  it('every part of the view is one of the compared parts, and every part changes the comparison', () => {
    expect(COMPARED_PARTS).toEqual(['outcome', 'header', 'requests', 'eventTypes', 'live', 'errors', 'stuck', 'crash'])
    expect(Object.keys(comparedView(base, 'reference'))).toEqual([...COMPARED_PARTS])
  })
})

describe('the declared normalisations, and nothing else', () => {
  it('name each target\'s own identity sentence and model id, as the two systems really write them', async () => {
    const reference = await projectionOf('scenarios/ci-flake.yml', 'reference', ['tool-subagent', 'tool-todo'])
    const dsh = await projectionOf('scenarios/ci-flake.yml', 'dsh', ['tool-subagent', 'tool-todo'])
    expect(targetNamed('dsh').identity.model).toBe(MOCK_MODEL)
    expect(reference.header).toMatchObject({ config: { model: targetNamed('reference').identity.model }, system: HARNESS_IDENTITY_TEXT })
    expect(dsh.header).toMatchObject({ config: { model: targetNamed('dsh').identity.model }, system: DSH_IDENTITY_TEXT })
    // Without normalising, exactly the declared places differ; with it, nothing does.
    const raw = (target: TargetName, projection: Projection) => ({ ...comparedView(projection, target), header: projection.header, requests: projection.requests })
    expect(viewDifferences(raw('reference', reference), raw('dsh', dsh)).map(difference => difference.path))
      .toEqual(['header.config.model', 'header.system', 'requests[0].model', 'requests[0].system'])
    expect(viewDifferences(comparedView(reference, 'reference'), comparedView(dsh, 'dsh'))).toEqual([])
  })

  it('apply only at the listed paths, and only to the target\'s own value', () => {
    const view = {
      header: { config: { provider: 'mock', model: 'mock-model' }, system: `${HARNESS_IDENTITY_TEXT}\n\npersona` },
      requests: [{ model: 'mock-model', messages: [{ content: [{ type: 'text', text: HARNESS_IDENTITY_TEXT }], source: { kind: 'model', model: 'mock-model' } }], system: 'persona only' }],
    }
    normalise(view, 'reference')
    expect(view).toEqual({
      header: { config: { provider: 'mock', model: '<model>' }, system: '<identity>\n\npersona' },
      // The identity inside a message is user content, not the identity section: left as it is, and so is a system prompt without it.
      requests: [{ model: '<model>', messages: [{ content: [{ type: 'text', text: HARNESS_IDENTITY_TEXT }], source: { kind: 'model', model: '<model>' } }], system: 'persona only' }],
    })
    // dsh's model id in a reference projection is not the reference's: it is compared, and would differ.
    const foreign = { header: { config: { model: targetNamed('dsh').identity.model } } }
    normalise(foreign, 'reference')
    expect(foreign.header.config.model).toBe(targetNamed('dsh').identity.model)
    expect(NORMALISATIONS.map(normalisation => normalisation.name)).toEqual(['identity text', 'model name'])
  })
})

describe('a real difference between the two systems', () => {
  /** A plugin whose tool description tells which tool service it found: the reference registry has `records()`, dsh's ToolRuntime does not. */
  const TELLING_MODULE = `export default {
  name: 'telling',
  inject: ['systemPrompt', 'tools'],
  apply(ctx) {
    const where = typeof ctx.tools.records === 'function' ? 'reference' : 'dsh'
    ctx.systemPrompt.tools(() => ({ schemas: [{ name: 'telling', description: 'runs on ' + where, parameters: { type: 'object', properties: {} } }] }))
  },
}
`

  it('is reported at its path in the header and in every request, with a replay token, in every format', async () => {
    const dir = await fixtureDir()
    await dir.write('telling.mjs', TELLING_MODULE)
    const file = await dir.write('telling.yml', 'name: telling\napp: none\nturns: 2\nplugins:\n  - id: telling\n    module: ./telling.mjs\n  - id: tool-alpha\n    tools: [alpha]\nexpect:\n  outcome: completed\n')
    const comparison = await compareScenario(await loadScenario(file), settings, { runner })
    expect(comparison?.differences.map(difference => [difference.path, difference.kind, difference.left, difference.right])).toEqual([
      ['header.tools[1].description', 'value', 'runs on reference', 'runs on dsh'],
      ['requests[0].tools[1].description', 'value', 'runs on reference', 'runs on dsh'],
      ['requests[1].tools[1].description', 'value', 'runs on reference', 'runs on dsh'],
    ])
    expect(comparison?.differences[0]?.token).toMatch(/^telling@canonical:/)
    const report: TargetDiffReport = {
      tool: 'loadrace',
      report: 'diff-targets',
      version: '0',
      complete: true,
      options: { strategy: 'auto', seed: '0', budget: MATRIX_BUDGET },
      targets: ['reference', 'dsh'],
      compared: [comparison!],
      skipped: [{ scenario: 'weights-distinct', file: 'scenarios/weights-distinct.yml', target: 'dsh', reason: 'the published packages implement only the canonical policy' }],
      summary: { scenarios: 2, compared: 1, differing: 1, skipped: 1, durationMs: 0 },
    }
    expect(comparisonRows(report)).toEqual([
      ['scenario', 'reference', 'dsh', 'compared', 'result'],
      ['telling', 'deterministic', 'deterministic', '1', 'differs: 3 (header, requests)'],
    ])
    const markdown = renderDiffMarkdown(report)
    expect(markdown).toContain('- header.tools\\[1\\].description: reference "runs on reference" · dsh "runs on dsh"')
    expect(markdown).toContain("npx loadrace replay 'telling@canonical:")
    expect(markdown).toContain(`| identity text → &lt;identity&gt; | \`header.system\`, \`requests[*].system\` | \`${HARNESS_IDENTITY_TEXT}\` | \`${DSH_IDENTITY_TEXT}\` |`)
    expect(markdown).toContain('weights-distinct (dsh): the published packages implement only the canonical policy')
    const out = await fixtureDir()
    const written = await writeTargetDiffReport(out.root, report, ['md', 'json'])
    expect(written.map(path => path.slice(out.root.length))).toEqual(['/diff-targets.md', '/diff-targets.json'])
    expect(JSON.parse(await readFile(join(out.root, 'diff-targets.json'), 'utf8'))).toEqual(report)
  }, 60_000)

  it('renders each kind of difference in one line', () => {
    const targets = ['reference', 'dsh'] as const
    expect(differenceText({ path: 'requests[1].messages[1]', kind: 'key-order', left: ['content', 'role'], right: ['role', 'content'], token: 't' }, targets))
      .toBe('requests[1].messages[1]: keys in another order: reference ["content","role"] · dsh ["role","content"]')
    expect(differenceText({ path: 'eventTypes[9]', kind: 'missing', left: undefined, right: 'turn/end', token: 't' }, targets)).toBe('eventTypes[9]: only dsh has "turn/end"')
    expect(differenceText({ path: 'outputs', kind: 'value', left: [2], right: [1, 1], token: 't' }, targets)).toBe('outputs: reference [2] · dsh [1,1]')
  })
})
