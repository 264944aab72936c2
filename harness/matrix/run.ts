import type { ScenarioReport } from '../judge/scenario-report.ts'
import type { Scenario } from '../scenario/scenario.ts'
import { sweepScenario, type SweepRun, type SweepSettings } from '../sweep/sweep.ts'
import type { Settings } from '../settings/settings.ts'
import type { Runner } from '../runners/runner.ts'
import { enveloped } from '../report/envelope.ts'
import { VARIANT_NAMES, type VariantName } from '../targets/catalogue.ts'
import { everyVariantTarget } from '../targets/registry.ts'
import { cellProblems } from './check.ts'
import { harnessFaultProblem } from '../judge/expectation.ts'
import { expectCell, scenarioFacts } from './expectations.ts'
import { outputProjections } from './output-projections.ts'
import { requestAgreement, type RequestAgreement } from './requests.ts'
import type { MatrixCell, MatrixReport } from './matrix-report.ts'

/** The settings the matrix reads: the sweep's, minus what it decides itself (variant, target, sharding), and where the goldens are. */
export type MatrixSettings = Omit<SweepSettings, 'variant' | 'target' | 'shard'> & Pick<Settings, 'goldens' | 'updateGoldens' | 'ci'>

/** How the matrix runs besides its settings. */
export interface MatrixRun extends Pick<SweepRun, 'runner' | 'signal' | 'onProgress'> {
  /** The rows; swept in `VARIANT_NAMES` order whatever order they are given in. */
  variants: readonly VariantName[]
  /** Called with each cell as soon as it is judged. */
  onCell?: (cell: MatrixCell) => void
}

/** Sweeps one cell. Variants are policies of loadrace's reference, so the target is always the one that runs every variant. */
function sweepCell(scenario: Scenario, variant: VariantName, settings: MatrixSettings, run: MatrixRun): Promise<ScenarioReport> {
  return sweepScenario(scenario, settings, {
    runner: run.runner,
    signal: run.signal,
    onProgress: run.onProgress,
    // The matrix never writes goldens: it compares with what is pinned, and a missing one is "nothing pinned".
    goldens: { goldens: settings.goldens, updateGoldens: settings.updateGoldens, ci: settings.ci, compareOnly: true },
    overrides: { variant, target: everyVariantTarget().name },
  })
}

/** How the distinct outputs of `report` compare in their dispatched requests (one output agrees with itself). */
async function requestsOf(scenario: Scenario, report: ScenarioReport, runner: Runner): Promise<RequestAgreement> {
  if (report.outputs.length <= 1) return 'identical'
  return requestAgreement(await outputProjections(scenario, report, runner))
}

/** A cell of the matrix: the sweep's facts, the expectation (from the scenario's definition alone), and whether they agree. */
async function judgeCell(scenario: Scenario, variant: VariantName, report: ScenarioReport, runner: Runner): Promise<MatrixCell> {
  const expected = expectCell(variant, scenario, scenarioFacts(scenario))
  const requests = expected.requests === undefined ? undefined : await requestsOf(scenario, report, runner)
  const problems = cellProblems(expected, report, requests)
  const fault = report.harnessFault
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
    match: problems.length === 0 && fault === undefined,
    problems: fault === undefined ? problems : [harnessFaultProblem(fault)],
    ...fault === undefined ? {} : { harnessFault: true as const },
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

/** One row: `variant` swept over every scenario, each cell judged. Stops (returning fewer) when the signal aborts. */
export async function matrixRow(variant: VariantName, scenarios: readonly Scenario[], settings: MatrixSettings, run: MatrixRun): Promise<MatrixCell[]> {
  const cells: MatrixCell[] = []
  for (const scenario of scenarios) {
    const report = await sweepCell(scenario, variant, settings, run)
    if (run.signal?.aborted) break
    const cell = await judgeCell(scenario, variant, report, run.runner)
    cells.push(cell)
    run.onCell?.(cell)
  }
  return cells
}

/**
 * Sweeps every requested variant over every scenario and judges each cell
 * against the rules of `expectations.ts`, which read only the scenario's
 * definition: the canonical row is swept and judged like any other. Stops
 * early, and marks the report incomplete, when the signal aborts.
 */
export async function runMatrix(scenarios: readonly Scenario[], settings: MatrixSettings, run: MatrixRun): Promise<MatrixReport> {
  const started = Date.now()
  const variants = orderedVariants(run.variants)
  const cells: MatrixCell[] = []
  for (const variant of variants) {
    if (run.signal?.aborted) break
    cells.push(...await matrixRow(variant, scenarios, settings, run))
  }
  const matched = cells.filter(cell => cell.match).length
  const harnessFaults = cells.filter(cell => cell.harnessFault === true).length
  return enveloped('matrix', {
    complete: cells.length === variants.length * scenarios.length,
    options: { strategy: settings.strategy, seed: settings.seed, budget: settings.budget, variants, goldens: settings.goldens ?? null },
    body: { scenarios: scenarios.map(scenario => scenario.name), cells },
    summary: {
      cells: cells.length,
      matched,
      mismatched: cells.length - matched - harnessFaults,
      harnessFaults,
      interleavings: cells.reduce((total, cell) => total + cell.explored, 0),
    },
    durationMs: Date.now() - started,
  })
}
