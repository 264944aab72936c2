import { loadScenario } from './scenario/load.ts'
import type { VariantName } from '../src/variants/types.ts'
import type { TargetName } from './targets/types.ts'
import type { ScenarioReport } from './report/types.ts'
import type { StrategyName } from './strategies/index.ts'
import { DEFAULT_BUDGET } from './strategies/index.ts'
import { inProcessRunner } from './sweep/runner.ts'
import { sweepScenario } from './sweep/sweep.ts'
import { replayCommand } from './report/present.ts'

export interface DeterminismOptions {
  strategy?: StrategyName
  budget?: number
  seed?: string
  variant?: VariantName
  target?: TargetName
}

/** The failure message of a scenario that is not byte-identical across interleavings. */
export function describeFailure(report: ScenarioReport): string {
  const lines = [`${report.file}: ${report.name} is ${report.verdict} across ${report.explored} interleavings (guarantee ${report.guarantee})`]
  const divergence = report.divergence
  if (divergence) {
    lines.push(`swapping ${divergence.blame[0]} and ${divergence.blame[1]} changes the ${divergence.part} (${divergence.kind})`)
    lines.push(`replay: ${replayCommand(divergence.tokens[0])}`, `replay: ${replayCommand(divergence.tokens[1])}`)
    lines.push(divergence.diff)
  } else {
    for (const output of report.outputs) lines.push(`replay: ${replayCommand(output.token)}`)
  }
  return lines.join('\n')
}

/**
 * A vitest-friendly assertion: sweeps one scenario file in this process and
 * throws, with the blame pair, the diff and replay tokens, unless every
 * explored interleaving produced the same bytes. Resolves to the scenario's
 * report entry.
 *
 * ```ts
 * it('registers deterministically', async () => {
 *   await expectDeterministic('scenarios/ci-flake.yml')
 * })
 * ```
 */
export async function expectDeterministic(file: string, options: DeterminismOptions = {}): Promise<ScenarioReport> {
  const scenario = await loadScenario(file)
  const runner = inProcessRunner()
  const report = await sweepScenario(scenario, {
    strategy: options.strategy ?? 'auto',
    budget: options.budget ?? DEFAULT_BUDGET,
    seed: options.seed ?? '0',
    variant: options.variant,
    target: options.target,
    runner,
    workers: 1,
  })
  await runner.close()
  if (report.skipped !== undefined) throw new Error(`${file}: not run on target ${report.target}: ${report.skipped}`)
  if (report.verdict !== 'deterministic') throw new Error(describeFailure(report))
  return report
}
