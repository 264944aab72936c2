import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VARIANT_NAMES, type VariantName } from '../../src/variants/types.ts'
import { cellProblems } from '../../harness/matrix/check.ts'
import { racingContributors } from '../../harness/matrix/contributions.ts'
import { expectCell } from '../../harness/matrix/expectations.ts'
import { outputProjections } from '../../harness/matrix/output-projections.ts'
import { matrixRows, renderMatrixMarkdown } from '../../harness/matrix/render.ts'
import { INVARIANT_FAILURE, requestAgreement } from '../../harness/matrix/requests.ts'
import { canonicalBaselines, matrixRow, runMatrix, type Baseline, type MatrixOptions } from '../../harness/matrix/run.ts'
import type { MatrixCell } from '../../harness/matrix/types.ts'
import { writeMatrixReport } from '../../harness/matrix/write.ts'
import { MATRIX_BUDGET } from '../../harness/matrix/budget.ts'
import { loadScenario, loadScenarios } from '../../harness/scenario/load.ts'
import { inProcessRunner } from '../../harness/sweep/runner.ts'
import { sweepScenario } from '../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs } from './scenario-fixtures.ts'

const runner = inProcessRunner()
const options: MatrixOptions = {
  strategy: 'auto',
  budget: MATRIX_BUDGET,
  seed: '0',
  runner,
  workers: 1,
  variants: VARIANT_NAMES,
  goldens: { dir: 'goldens', update: false, ci: true },
}

let baselines: Baseline[]
const rows = new Map<VariantName, MatrixCell[]>()

/** The row of `variant` over the bundled scenarios, swept once. */
async function row(variant: VariantName): Promise<MatrixCell[]> {
  let cells = rows.get(variant)
  if (!cells) {
    cells = await matrixRow(variant, baselines, options)
    rows.set(variant, cells)
  }
  return cells
}

function cellOf(cells: readonly MatrixCell[], scenario: string): MatrixCell {
  const cell = cells.find(candidate => candidate.scenario === scenario)
  if (!cell) throw new Error(`no cell for ${scenario}`)
  return cell
}

function baselineOf(scenario: string): Baseline {
  const baseline = baselines.find(candidate => candidate.scenario.name === scenario)
  if (!baseline) throw new Error(`no baseline for ${scenario}`)
  return baseline
}

function names(cells: readonly MatrixCell[], keep: (cell: MatrixCell) => boolean): string[] {
  return cells.filter(keep).map(cell => cell.scenario)
}

/** The scenarios the rules call racing (judged from each scenario's definition and canonical sweep). */
function racing(): string[] {
  return baselines.filter(baseline => racingContributors(baseline.scenario, baseline.report) !== undefined).map(baseline => baseline.scenario.name)
}

beforeAll(async () => {
  baselines = await canonicalBaselines(await loadScenarios(['scenarios']), options)
}, 180_000)

afterAll(removeFixtureDirs)

describe('the bundled matrix meets the rules', () => {
  it.each(VARIANT_NAMES)('%s: every cell meets its expectation', async (variant) => {
    const cells = await row(variant)
    expect(cells).toHaveLength(baselines.length)
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

  it('registration-order and dependency-linearization diverge exactly on the racing scenarios (and where canonical does)', async () => {
    const divergentUnderCanonical = baselines.filter(baseline => baseline.report.verdict === 'divergent').map(baseline => baseline.scenario.name)
    for (const variant of ['registration-order', 'dependency-linearization'] as const) {
      const cells = await row(variant)
      expect(names(cells, cell => cell.verdict === 'divergent').sort()).toEqual([...new Set([...racing(), ...divergentUnderCanonical])].sort())
      expect(cellOf(cells, 'ci-flake').blame?.slice().sort()).toEqual(['tool-subagent', 'tool-todo'])
    }
  }, 180_000)

  it('per-plugin-weight is deterministic with distinct weights and divergent with ties', async () => {
    const cells = await row('per-plugin-weight')
    expect(cellOf(cells, 'weights-distinct')).toMatchObject({ verdict: 'deterministic', expected: { verdict: 'deterministic' } })
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

  it('unsorted-known-names diverges in the errors on the unknown-name scenario only', async () => {
    const cells = await row('unsorted-known-names')
    expect(names(cells, cell => cell.expected.verdict === 'divergent')).toEqual(['unknown-tool-order-name'])
    expect(cellOf(cells, 'unknown-tool-order-name')).toMatchObject({ verdict: 'divergent', part: 'errors' })
  }, 180_000)

  it('locale-compare is deterministic, but its golden mismatches the canonical golden on mixed-case-names only', async () => {
    const cells = await row('locale-compare')
    expect(cellOf(cells, 'mixed-case-names')).toMatchObject({ verdict: 'deterministic', golden: 'mismatch', expected: { golden: 'mismatch' }, match: true })
    expect(names(cells, cell => cell.expected.golden === 'mismatch')).toEqual(['mixed-case-names'])
  }, 180_000)

  it('listener-random is uncontrolled on every completed scenario with two or more header tools', async () => {
    const cells = await row('listener-random')
    expect(cellOf(cells, 'ci-flake').verdict).toBe('uncontrolled')
    expect(cellOf(cells, 'unknown-tool-order-name').verdict).toBe('deterministic')
    expect(names(cells, cell => cell.verdict === 'uncontrolled').length).toBeGreaterThanOrEqual(15)
  }, 180_000)
})

describe('stream-normalize with the reconstruction invariant', () => {
  it('fails the turn in the interleavings whose registration order is not the sorted order', async () => {
    const scenario = await loadScenario('scenarios/multi-turn-invariant.yml')
    const entry = await sweepScenario(scenario, { strategy: 'auto', budget: MATRIX_BUDGET, seed: '0', runner, workers: 1, variant: 'stream-normalize' })
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
  it('names each contradiction: verdict, part, blame, requests, golden', async () => {
    const flake = baselineOf('ci-flake')
    const expected = expectCell('registration-order', flake.scenario, flake.facts)
    expect(expected).toMatchObject({ verdict: 'divergent', blame: [['tool-subagent', 'tool-todo']] })
    expect(cellProblems(expected, flake.report)).toEqual(['verdict deterministic, expected divergent (racing)'])
    const divergent = await sweepScenario(flake.scenario, { ...options, variant: 'registration-order' })
    expect(cellProblems(expected, divergent)).toEqual([])
    const altered = {
      ...divergent,
      golden: 'match' as const,
      divergence: { ...divergent.divergence!, part: 'request' as const, blame: ['tool-subagent', 'ghost'] as [string, string] },
    }
    expect(cellProblems({ ...expected, part: 'header', golden: 'mismatch', requests: 'identical' }, altered)).toEqual([
      'the divergence first differs in request, expected header',
      'blames tool-subagent ↔ ghost, expected two of {tool-subagent, tool-todo}',
      'the dispatched requests were not compared',
      'golden match, expected a mismatch with the committed canonical golden',
    ])
    expect(cellProblems({ ...expected, requests: 'identical' }, divergent, 'different')).toEqual([
      'dispatched requests: different across the outputs, expected identical',
    ])
  }, 60_000)

  it('requestAgreement tells identical, invariant-stopped and different requests apart', async () => {
    const flake = baselineOf('ci-flake')
    const entry = await sweepScenario(flake.scenario, { ...options, variant: 'registration-order' })
    const projections = await outputProjections(flake.scenario, entry, runner)
    expect(projections).toHaveLength(2)
    expect(requestAgreement(projections)).toBe('different')
    expect(requestAgreement([projections[0]!, projections[0]!])).toBe('identical')
    const stopped = { ...projections[1]!, requests: [], errors: { load: [], turn: [`${INVARIANT_FAILURE}: request field "tools" differs`] } }
    expect(requestAgreement([projections[0]!, stopped])).toBe('identical-or-invariant')
  }, 60_000)
})

describe('runMatrix: report, rendering and files', () => {
  it('one JSON entry per cell, a variant × scenario table, and matrix.json / matrix.md written', async () => {
    const scenarios = await loadScenarios(['scenarios/ci-flake.yml', 'scenarios/unknown-tool-order-name.yml'])
    const report = await runMatrix(scenarios, { ...options, variants: ['registration-order', 'canonical'] })
    expect(report.options.variants).toEqual(['canonical', 'registration-order'])
    expect(report.complete).toBe(true)
    expect(report.summary).toMatchObject({ cells: 4, matched: 4, mismatched: 0 })
    const flake = report.cells.find(cell => cell.variant === 'registration-order' && cell.scenario === 'ci-flake')!
    expect(flake).toMatchObject({ verdict: 'divergent', expected: { verdict: 'divergent' }, match: true, part: 'header', kind: 'order', golden: 'none' })
    expect(flake.blame?.slice().sort()).toEqual(['tool-subagent', 'tool-todo'])
    expect(matrixRows(report)).toEqual([
      ['scenario', 'canonical', 'registration-order'],
      ['ci-flake', 'det (det)', 'div (div)'],
      ['unknown-tool-order-name', 'det (det)', 'det (det)'],
    ])
    const markdown = renderMatrixMarkdown(report)
    expect(markdown).toContain('| `ci-flake` | det (det) | div (div) |')
    expect(markdown).toContain('- **registration-order** — divergent on every racing scenario')

    const dir = await fixtureDir()
    const written = await writeMatrixReport(join(dir.root, 'out'), report, ['json', 'md'])
    expect(written.map(path => path.slice(dir.root.length))).toEqual(['/out/matrix.json', '/out/matrix.md'])
    expect(JSON.parse(await readFile(written[0]!, 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)))
    expect(await readFile(written[1]!, 'utf8')).toBe(markdown)
  }, 120_000)

  it('a cell that contradicts its rule is marked ✗ and counted', async () => {
    // One interleaving cannot show the registration race the rules expect.
    const scenarios = await loadScenarios(['scenarios/ci-flake.yml'])
    const report = await runMatrix(scenarios, { ...options, budget: 1, variants: ['registration-order'] })
    expect(report.summary).toMatchObject({ cells: 1, matched: 0, mismatched: 1 })
    expect(report.cells[0]!.problems).toEqual(['verdict deterministic, expected divergent (racing)'])
    expect(matrixRows(report)[1]).toEqual(['ci-flake', 'det (div) ✗'])
  }, 60_000)
})
