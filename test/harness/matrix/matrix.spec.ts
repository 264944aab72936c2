import { spawnSync } from 'node:child_process'
import { cp, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VARIANT_NAMES, type VariantName } from '../../../src/variants/variant.ts'
import { cellProblems } from '../../../harness/matrix/check.ts'
import { racingContributors } from '../../../harness/matrix/contributions.ts'
import { expectCell, statedVerdict } from '../../../harness/matrix/expectations.ts'
import { outputProjections } from '../../../harness/matrix/output-projections.ts'
import { matrixRows, renderMatrixMarkdown } from '../../../harness/matrix/render.ts'
import { INVARIANT_FAILURE } from '../../../harness/matrix/rfc.ts'
import { requestAgreement } from '../../../harness/matrix/requests.ts'
import { matrixRow, runMatrix, type MatrixRun, type MatrixSettings } from '../../../harness/matrix/run.ts'
import type { MatrixCell, MatrixReport } from '../../../harness/matrix/matrix-report.ts'
import { writeMatrixReport } from '../../../harness/matrix/write.ts'
import { MATRIX_BUDGET } from '../../../harness/settings/defaults.ts'
import type { Verdict } from '../../../harness/verdict/verdict.ts'
import { loadScenario, loadScenarios } from '../../../harness/scenario/load.ts'
import type { PluginSpec, Scenario } from '../../../harness/scenario/scenario.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

const runner = inProcessRunner()
const settings: MatrixSettings = { strategy: 'auto', budget: MATRIX_BUDGET, seed: '0', workers: 1, goldens: 'goldens', updateGoldens: false, ci: true }
const run: MatrixRun = { runner, variants: VARIANT_NAMES }

let scenarios: Scenario[]
const rows = new Map<VariantName, MatrixCell[]>()

/** The row of `variant` over the bundled scenarios, swept once. */
async function row(variant: VariantName): Promise<MatrixCell[]> {
  let cells = rows.get(variant)
  if (!cells) {
    cells = await matrixRow(variant, scenarios, settings, run)
    rows.set(variant, cells)
  }
  return cells
}

function cellOf(cells: readonly MatrixCell[], scenario: string): MatrixCell {
  const cell = cells.find(candidate => candidate.scenario === scenario)
  if (!cell) throw new Error(`no cell for ${scenario}`)
  return cell
}

function scenarioOf(name: string): Scenario {
  const scenario = scenarios.find(candidate => candidate.name === name)
  if (!scenario) throw new Error(`no scenario ${name}`)
  return scenario
}

function names(cells: readonly MatrixCell[], keep: (cell: MatrixCell) => boolean): string[] {
  return cells.filter(keep).map(cell => cell.scenario)
}

/** The scenarios the rules call racing (from each scenario's definition). */
function racing(): string[] {
  return scenarios.filter(scenario => racingContributors(scenario) !== undefined).map(scenario => scenario.name)
}

const VERDICTS: readonly Verdict[] = ['deterministic', 'divergent', 'uncontrolled', 'stuck', 'skipped', 'error']

beforeAll(async () => {
  scenarios = await loadScenarios(['scenarios'])
})

afterAll(removeFixtureDirs)

describe('the expectations come from the scenario definitions and the RFC, never from a sweep', () => {
  it('every cell expects one verdict: none accepts any', () => {
    for (const scenario of scenarios) {
      for (const variant of VARIANT_NAMES) expect(VERDICTS, `${variant} on ${scenario.name}`).toContain(expectCell(variant, scenario).verdict)
    }
  })

  it('the canonical row expects deterministic exactly where a canonical scenario\'s expect.deterministic is true', () => {
    for (const scenario of scenarios.filter(candidate => candidate.variant === 'canonical')) {
      const expected = expectCell('canonical', scenario)
      expect(expected.own, scenario.name).toBe(true)
      expect(expected.verdict, scenario.name).toBe(statedVerdict(scenario))
      if (scenario.expect.outcome !== 'stuck') expect(expected.verdict === 'deterministic', scenario.name).toBe(scenario.expect.deterministic)
    }
  })

  it('change the definition and the expectation follows: weights, listeners, plugins, toolOrder', async () => {
    const flake = await loadScenario('scenarios/ci-flake.yml')
    const weighted = { ...flake, plugins: flake.plugins.map((spec, i): PluginSpec => ({ ...spec, weight: i })) }
    expect(expectCell('per-plugin-weight', flake)).toMatchObject({ verdict: 'divergent', blame: [['tool-subagent', 'tool-todo']] })
    expect(expectCell('per-plugin-weight', weighted)).toMatchObject({ verdict: 'deterministic', rule: 'racing with pairwise distinct weights' })
    const alone = { ...flake, plugins: flake.plugins.slice(0, 1) }
    expect(expectCell('registration-order', flake)).toMatchObject({ verdict: 'divergent', part: 'header' })
    expect(expectCell('registration-order', alone)).toMatchObject({ verdict: 'deterministic', rule: 'not racing' })
    const listed = { ...flake, config: { toolOrder: ['todo_write', 'list_agents', '<unlisted-tools>'] } }
    expect(expectCell('registration-order', listed).verdict).toBe('deterministic')
    const listener = (id: string, listener: Partial<{ append: string[], reverse: boolean }>): PluginSpec =>
      ({ kind: 'listener', id, inject: [], listener: { prepend: [], append: [], reverse: false, remove: [], ...listener } })
    const commuting = { ...flake, variant: 'registration-order' as const, plugins: [...flake.plugins, listener('l1', { append: ['x'] }), listener('l2', { append: ['x'] })] }
    expect(expectCell('canonical', commuting).verdict).toBe('deterministic')
    const racingListeners = { ...commuting, plugins: [...flake.plugins, listener('l1', { append: ['x'] }), listener('l2', { reverse: true })] }
    expect(expectCell('canonical', racingListeners)).toMatchObject({ verdict: 'divergent', blame: [['l1', 'l2']] })
    expect(expectCell('loop-order-tools', racingListeners).verdict).toBe('deterministic')
    expect(expectCell('listener-random', { ...flake, expect: { ...flake.expect, outcome: 'turn-error' as const } }).verdict).toBe('deterministic')
  })
})

describe('the bundled matrix meets the rules', () => {
  it.each(VARIANT_NAMES)('%s: every cell meets its expectation', async (variant) => {
    const cells = await row(variant)
    expect(cells).toHaveLength(scenarios.length)
    const failures = cells.filter(cell => !cell.match).map(cell => `${cell.scenario}: ${cell.problems.join('; ')}`)
    expect(failures).toEqual([])
  }, 180_000)
})

describe('the rules are not vacuous on the bundled scenarios', () => {
  it('the RFC flake and most completed scenarios are racing; misconfigurations and single-contributor orders are not', () => {
    const racingNames = racing()
    expect(racingNames).toContain('ci-flake')
    expect(racingNames.length).toBeGreaterThanOrEqual(10)
    // One tool plugin fills the unlisted part (the other tool is listed), so nothing races.
    expect(racingNames).not.toContain('services-as-entries')
    expect(racingNames).not.toContain('tool-order-placement')
    expect(racingNames).not.toContain('unknown-tool-order-name')
    // One tool plugin and two listeners: the listeners race under every policy, but no two plugins' tools do.
    expect(racingNames).not.toContain('listeners-non-commuting')
    // The two providers of `search` are module plugins: they count.
    expect(racingNames).toContain('shared-tool-name')
  })

  it('canonical is deterministic everywhere but the stuck faults and the two races the scenarios state', async () => {
    const cells = await row('canonical')
    expect(names(cells, cell => cell.verdict === 'divergent').sort()).toEqual(['listeners-non-commuting', 'shared-tool-name'])
    expect(names(cells, cell => cell.verdict === 'stuck').sort()).toEqual(['apply-hangs', 'import-hangs'])
  }, 180_000)

  it('registration-order and dependency-linearization diverge exactly on the racing scenarios and the stated races', async () => {
    for (const variant of ['registration-order', 'dependency-linearization'] as const) {
      const cells = await row(variant)
      expect(names(cells, cell => cell.verdict === 'divergent').sort()).toEqual([...new Set([...racing(), 'listeners-non-commuting', 'shared-tool-name'])].sort())
      expect(cellOf(cells, 'ci-flake').blame?.slice().sort()).toEqual(['tool-subagent', 'tool-todo'])
    }
  }, 180_000)

  it('per-plugin-weight is deterministic with distinct weights and divergent with ties', async () => {
    const cells = await row('per-plugin-weight')
    expect(cellOf(cells, 'weights-distinct')).toMatchObject({ verdict: 'deterministic', expected: { verdict: 'deterministic', own: true } })
    expect(cellOf(cells, 'ci-flake')).toMatchObject({ verdict: 'divergent', expected: { verdict: 'divergent', rule: 'racing with tied weights' } })
  }, 180_000)

  it('stream-normalize diverges in the header while every dispatched request is identical', async () => {
    const cells = await row('stream-normalize')
    const racingCells = cells.filter(cell => racing().includes(cell.scenario))
    expect(racingCells.length).toBeGreaterThanOrEqual(10)
    for (const cell of racingCells) {
      expect(cell, cell.scenario).toMatchObject({ verdict: 'divergent', part: 'header' })
    }
    const withoutInvariant = racingCells.filter(cell => cell.scenario !== 'multi-turn-invariant' && cell.scenario !== 'shared-tool-name')
    for (const cell of withoutInvariant) expect(cell.requests, cell.scenario).toBe('identical')
    expect(cellOf(cells, 'multi-turn-invariant')).toMatchObject({ expected: { requests: 'identical-or-invariant' }, requests: 'identical-or-invariant' })
    // The same-name residual reaches the wire under canonical too, so the rule does not ask for identical requests there.
    expect(cellOf(cells, 'shared-tool-name').expected.requests).toBeUndefined()
  }, 180_000)

  it('loop-order-tools is deterministic, listener races included, but not where a same-name race survives its sort', async () => {
    const cells = await row('loop-order-tools')
    expect(cellOf(cells, 'listeners-non-commuting').verdict).toBe('deterministic')
    expect(names(cells, cell => cell.verdict === 'divergent')).toEqual(['shared-tool-name'])
  }, 180_000)

  it('unsorted-known-names diverges in the errors on the unknown-name scenario only', async () => {
    const cells = await row('unsorted-known-names')
    expect(names(cells, cell => cell.expected.part === 'errors')).toEqual(['unknown-tool-order-name'])
    expect(cellOf(cells, 'unknown-tool-order-name')).toMatchObject({ verdict: 'divergent', part: 'errors' })
  }, 180_000)

  it('locale-compare is deterministic, but its golden mismatches the canonical golden on mixed-case-names only', async () => {
    const cells = await row('locale-compare')
    expect(cellOf(cells, 'mixed-case-names')).toMatchObject({ verdict: 'deterministic', golden: 'mismatch', expected: { golden: 'mismatch' }, match: true })
    expect(names(cells, cell => cell.expected.golden === 'mismatch')).toEqual(['mixed-case-names'])
  }, 180_000)

  it('listener-random is uncontrolled on every scenario that logs a header of two or more tools', async () => {
    const cells = await row('listener-random')
    expect(cellOf(cells, 'ci-flake').verdict).toBe('uncontrolled')
    expect(cellOf(cells, 'unknown-tool-order-name').verdict).toBe('deterministic')
    expect(names(cells, cell => cell.verdict === 'uncontrolled').length).toBeGreaterThanOrEqual(15)
  }, 180_000)
})

describe('stream-normalize with the reconstruction invariant', () => {
  it('fails the turn in the interleavings whose registration order is not the sorted order', async () => {
    const scenario = await loadScenario('scenarios/multi-turn-invariant.yml')
    const entry = await sweepScenario(scenario, { strategy: 'auto', budget: MATRIX_BUDGET, seed: '0', workers: 1, variant: 'stream-normalize' }, { runner })
    const projections = await outputProjections(scenario, entry, runner)
    const failed = projections.filter(projection => projection.errors.turn.some(message => message.includes(INVARIANT_FAILURE)))
    expect(INVARIANT_FAILURE).toBe('invariant violated by "agent-loop"')
    expect(failed.length).toBeGreaterThan(0)
    for (const projection of failed) expect(projection).toMatchObject({ outcome: 'turn-error', requests: [] })
    expect(projections.some(projection => projection.outcome === 'completed')).toBe(true)
    expect(requestAgreement(projections)).toBe('identical-or-invariant')
  }, 60_000)
})

describe('the checker reports what contradicts a rule', () => {
  it('names each contradiction: verdict, part, blame, requests, golden, the scenario\'s own sweep', async () => {
    const flake = scenarioOf('ci-flake')
    const expected = expectCell('registration-order', flake)
    expect(expected).toMatchObject({ verdict: 'divergent', part: 'header', blame: [['tool-subagent', 'tool-todo']] })
    const deterministic = await sweepScenario(flake, settings, { runner, goldens: settings })
    expect(cellProblems(expected, deterministic)).toEqual(['verdict deterministic, expected divergent (racing)'])
    const divergent = await sweepScenario(flake, { ...settings, variant: 'registration-order' }, { runner, goldens: settings })
    expect(cellProblems(expected, divergent)).toEqual([])
    const altered = {
      ...divergent,
      golden: 'match' as const,
      divergence: { ...divergent.divergence!, part: 'request' as const, blame: ['tool-subagent', 'ghost'] as [string, string] },
    }
    expect(cellProblems({ ...expected, golden: 'mismatch', requests: 'identical' }, altered)).toEqual([
      'the divergence first differs in request, expected header',
      'blames tool-subagent ↔ ghost, expected two of {tool-subagent, tool-todo}',
      'the dispatched requests were not compared',
      'golden match, expected a mismatch with the committed canonical golden',
    ])
    expect(cellProblems({ ...expected, requests: 'identical' }, divergent, 'different')).toEqual([
      'dispatched requests: different across the outputs, expected identical',
    ])
    // The canonical cell of a canonical scenario is the scenario's own sweep: its expect block counts, not only the verdict.
    const own = expectCell('canonical', flake)
    expect(own).toMatchObject({ verdict: 'deterministic', own: true })
    expect(cellProblems(own, { ...deterministic, passed: false, problems: ['expected tools [a], got [b]'] }))
      .toEqual(['the scenario\'s own sweep does not pass: expected tools [a], got [b]'])
  }, 60_000)

  it('requestAgreement tells identical, invariant-stopped and different requests apart', async () => {
    const flake = scenarioOf('ci-flake')
    const entry = await sweepScenario(flake, { ...settings, variant: 'registration-order' }, { runner, goldens: settings })
    const projections = await outputProjections(flake, entry, runner)
    expect(projections).toHaveLength(2)
    expect(requestAgreement(projections)).toBe('different')
    expect(requestAgreement([projections[0]!, projections[0]!])).toBe('identical')
    const stopped = { ...projections[1]!, requests: [], errors: { load: [], turn: [`${INVARIANT_FAILURE}: request field "tools" differs`] } }
    expect(requestAgreement([projections[0]!, stopped])).toBe('identical-or-invariant')
  }, 60_000)
})

describe('runMatrix: report, rendering and files', () => {
  it('one JSON entry per cell, a variant × scenario table, and matrix.json / matrix.md written', async () => {
    const chosen = await loadScenarios(['scenarios/ci-flake.yml', 'scenarios/unknown-tool-order-name.yml'])
    const report = await runMatrix(chosen, settings, { ...run, variants: ['registration-order', 'canonical'] })
    expect(report.options.variants).toEqual(['canonical', 'registration-order'])
    expect(report.complete).toBe(true)
    expect(report.summary).toMatchObject({ cells: 4, matched: 4, mismatched: 0 })
    expect(report.summary.interleavings).toBe(report.cells.reduce((total, cell) => total + cell.explored, 0))
    const flake = report.cells.find(cell => cell.variant === 'registration-order' && cell.scenario === 'ci-flake')!
    expect(flake).toMatchObject({ verdict: 'divergent', expected: { verdict: 'divergent' }, match: true, part: 'header', kind: 'order', golden: 'none' })
    expect(flake.blame?.slice().sort()).toEqual(['tool-subagent', 'tool-todo'])
    expect(matrixRows(report)).toEqual([
      ['scenario', 'canonical', 'registration-order'],
      ['ci-flake', 'det (det)', 'div·header (div·header)'],
      ['unknown-tool-order-name', 'det (det)', 'det (det)'],
    ])
    const markdown = renderMatrixMarkdown(report)
    expect(markdown).toContain('| `ci-flake` | det (det) | div·header (div·header) |')
    expect(markdown).toContain('- **registration-order** — divergent in the header on every racing scenario')

    const dir = await fixtureDir()
    const written = await writeMatrixReport(join(dir.root, 'out'), report, ['json', 'md'])
    expect(written.map(path => path.slice(dir.root.length))).toEqual(['/out/matrix.json', '/out/matrix.md'])
    expect(JSON.parse(await readFile(written[0]!, 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)))
    expect(await readFile(written[1]!, 'utf8')).toBe(markdown)
  }, 120_000)

  it('a cell that contradicts its rule is marked ✗ and counted', async () => {
    // One interleaving cannot show the registration race the rules expect.
    const chosen = await loadScenarios(['scenarios/ci-flake.yml'])
    const report = await runMatrix(chosen, { ...settings, budget: 1 }, { ...run, variants: ['registration-order'] })
    expect(report.summary).toMatchObject({ cells: 1, matched: 0, mismatched: 1 })
    expect(report.cells[0]!.problems).toEqual(['verdict deterministic, expected divergent (racing)'])
    expect(matrixRows(report)[1]).toEqual(['ci-flake', 'det (div·header) ✗'])
  }, 60_000)
})

describe('a reference whose unlisted tools keep registration order fails the matrix', () => {
  /** The reference's ordering function with its sort taken out: unlisted tools keep collection (registration) order. */
  const MUTATIONS: readonly [string, string][] = [
    ['  if (toolOrder === undefined) return sortByName(tools, variant.compareNames)', '  if (toolOrder === undefined) return [...tools]'],
    ['  const rest = sortByName(unlisted, variant.compareNames)', '  const rest = [...unlisted]'],
  ]
  const ARGS = ['matrix', 'scenarios/ci-flake.yml', 'scenarios/tool-order-placement.yml', '--variants', 'canonical,registry-sort,loop-order-tools', '--workers', '1', '--format', 'json']

  /** Runs the `loadrace` bin of the project at `root` (its own harness and reference) in `root`. */
  function loadrace(root: string, args: readonly string[]) {
    const run = spawnSync(process.execPath, [join(root, 'bin/loadrace.js'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '' } })
    return { code: run.status, stdout: run.stdout, stderr: run.stderr }
  }

  it('--variants canonical,registry-sort,loop-order-tools reports the mismatching cells and exits 1 (the intact reference: 6 of 6, exit 0)', async () => {
    const intact = await fixtureDir()
    const good = loadrace(process.cwd(), [...ARGS, '--report', join(intact.root, 'matrix')])
    expect(good.stderr).toBe('')
    expect(good.code).toBe(0)
    expect(good.stdout).toContain('6 of 6 cells match their expectation')

    // A copy of the project with the mutated reference (dependencies shared through a link).
    const copy = await fixtureDir()
    for (const part of ['bin', 'harness', 'src', 'scenarios', 'goldens', 'package.json', 'tsconfig.json']) await cp(part, join(copy.root, part), { recursive: true })
    await symlink(join(process.cwd(), 'node_modules'), join(copy.root, 'node_modules'), 'dir')
    const file = join(copy.root, 'src/system-prompt/tool-order.ts')
    let source = await readFile(file, 'utf8')
    for (const [from, to] of MUTATIONS) {
      expect(source).toContain(from)
      source = source.replace(from, to)
    }
    await writeFile(file, source)

    const broken = loadrace(copy.root, [...ARGS, '--report', join(copy.root, 'matrix')])
    expect(broken.stderr).toBe('')
    expect(broken.code).toBe(1)
    expect(broken.stdout).toMatch(/^ci-flake +div \(det\) ✗ +det \(det\) +div \(det\) ✗$/m)
    expect(broken.stdout).toMatch(/^tool-order-placement +det \(det\) ✗ +det \(det\) +det \(det\)$/m)
    expect(broken.stdout).toContain('✗ canonical on ci-flake:\n    verdict divergent, expected deterministic')
    expect(broken.stdout).toContain('✗ canonical on tool-order-placement:\n    the scenario\'s own sweep does not pass: expected tools [todo_write, echo_a, echo_b, bash], got [todo_write, echo_b, echo_a, bash]')
    expect(broken.stdout).toContain('✗ loop-order-tools on ci-flake:')
    expect(broken.stdout).toContain('3 of 6 cells match their expectation')
    const report = JSON.parse(await readFile(join(copy.root, 'matrix/matrix.json'), 'utf8')) as MatrixReport
    expect(report.summary).toMatchObject({ cells: 6, mismatched: 3 })
  }, 120_000)
})
