import type { ScenarioReport } from '../report/types.ts'
import type { Scenario } from '../scenario/types.ts'
import { sweepScenario, type SweepOptions } from '../sweep/sweep.ts'
import type { Runner } from '../sweep/runner.ts'
import { VERSION } from '../version.ts'
import { VARIANT_NAMES, type VariantName } from '../../src/variants/types.ts'
import { cellProblems } from './check.ts'
import { expectCell, type CanonicalFacts } from './expectations.ts'
import { outputProjections } from './output-projections.ts'
import { requestAgreement, type RequestAgreement } from './requests.ts'
import type { MatrixCell, MatrixReport } from './types.ts'

/** How the matrix sweeps: the sweep's knobs, minus what the matrix decides itself (variant, target, sharding). */
export interface MatrixOptions extends Omit<SweepOptions, 'variant' | 'target' | 'shard' | 'onScenario'> {
  /** The rows; swept in `VARIANT_NAMES` order whatever order they are given in. */
  variants: readonly VariantName[]
  /** Called with each cell as soon as it is judged. */
  onCell?: (cell: MatrixCell) => void
}

/** Sweeps one cell. Variants are policies of loadrace's reference, so the target is always `reference`. */
function sweepCell(scenario: Scenario, variant: VariantName, options: MatrixOptions): Promise<ScenarioReport> {
  // The matrix never writes goldens: under an override they are only compared, and here not even a missing one is written.
  const goldens = options.goldens && { ...options.goldens, update: false, ci: true }
  return sweepScenario(scenario, { ...options, goldens, variant, target: 'reference' })
}

/** How the distinct outputs of `report` compare in their dispatched requests (one output agrees with itself). */
async function requestsOf(scenario: Scenario, report: ScenarioReport, runner: Runner): Promise<RequestAgreement> {
  if (report.outputs.length <= 1) return 'identical'
  return requestAgreement(await outputProjections(scenario, report, runner))
}

/** A cell of the matrix: the sweep's facts, the expectation, and whether they agree. */
async function judgeCell(scenario: Scenario, variant: VariantName, report: ScenarioReport, canonical: CanonicalFacts, runner: Runner): Promise<MatrixCell> {
  const expected = expectCell(variant, scenario, canonical)
  const requests = expected.requests === undefined ? undefined : await requestsOf(scenario, report, runner)
  const problems = cellProblems(expected, report, requests)
  const divergence = report.divergence
  const cell: MatrixCell = {
    scenario: scenario.name,
    file: scenario.file,
    variant,
    verdict: report.verdict,
    outcome: report.outcome,
    explored: report.explored,
    distinctOutputs: report.distinctOutputs,
    expected,
    match: problems.length === 0,
    problems,
    part: divergence?.part ?? null,
    kind: divergence?.kind ?? null,
    blame: divergence ? [divergence.blame[0], divergence.blame[1]] : null,
    golden: report.golden,
    token: divergence?.tokens[0] ?? report.outputs[0]?.token ?? null,
  }
  if (requests !== undefined) cell.requests = requests
  return cell
}

/** The variants to sweep, in `VARIANT_NAMES` order, each once. */
export function orderedVariants(variants: readonly VariantName[]): VariantName[] {
  return VARIANT_NAMES.filter(name => variants.includes(name))
}

/** The canonical sweep of a scenario and the facts the rules read from it. */
export interface Baseline {
  scenario: Scenario
  report: ScenarioReport
  facts: CanonicalFacts
}

/** Sweeps each scenario under canonical: the baseline every rule is stated against. Stops (returning fewer) when the signal aborts. */
export async function canonicalBaselines(scenarios: readonly Scenario[], options: MatrixOptions): Promise<Baseline[]> {
  const baselines: Baseline[] = []
  for (const scenario of scenarios) {
    const report = await sweepCell(scenario, 'canonical', options)
    if (options.signal?.aborted) break
    const requestsIdentical = (await requestsOf(scenario, report, options.runner)) === 'identical'
    baselines.push({ scenario, report, facts: { report, requestsIdentical } })
  }
  return baselines
}

/** One row: `variant` over every baseline's scenario, each cell judged. Stops (returning fewer) when the signal aborts. */
export async function matrixRow(variant: VariantName, baselines: readonly Baseline[], options: MatrixOptions): Promise<MatrixCell[]> {
  const cells: MatrixCell[] = []
  for (const { scenario, report: canonical, facts } of baselines) {
    const report = variant === 'canonical' ? canonical : await sweepCell(scenario, variant, options)
    if (options.signal?.aborted) break
    const cell = await judgeCell(scenario, variant, report, facts, options.runner)
    cells.push(cell)
    options.onCell?.(cell)
  }
  return cells
}

/**
 * Sweeps every variant over every scenario and judges each cell against the
 * rules of `expectations.ts`. Canonical is always swept first (every rule is
 * stated relative to it) and is a row only when asked for. Stops early, and
 * marks the report incomplete, when the signal aborts.
 */
export async function runMatrix(scenarios: readonly Scenario[], options: MatrixOptions): Promise<MatrixReport> {
  const started = Date.now()
  const variants = orderedVariants(options.variants)
  const baselines = await canonicalBaselines(scenarios, options)
  const cells: MatrixCell[] = []
  for (const variant of variants) {
    if (options.signal?.aborted) break
    cells.push(...await matrixRow(variant, baselines, options))
  }
  const swept = [...baselines.map(baseline => baseline.report), ...cells.filter(cell => cell.variant !== 'canonical')]
  const matched = cells.filter(cell => cell.match).length
  return {
    tool: 'loadrace',
    report: 'matrix',
    version: VERSION,
    complete: cells.length === variants.length * scenarios.length,
    options: { strategy: options.strategy, seed: options.seed, budget: options.budget, variants, goldens: options.goldens?.dir ?? null },
    scenarios: scenarios.map(scenario => scenario.name),
    cells,
    summary: {
      cells: cells.length,
      matched,
      mismatched: cells.length - matched,
      interleavings: swept.reduce((total, entry) => total + entry.explored, 0),
      durationMs: Date.now() - started,
    },
  }
}
