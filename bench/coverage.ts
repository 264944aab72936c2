import { loadScenario } from '../harness/scenario/load.ts'
import { spaceOf, spaceSize, type Space } from '../harness/space/space.ts'
import { coverRows } from '../harness/strategies/cover.ts'
import { discoverSpace } from '../harness/explore/explore.ts'
import { planFor } from '../harness/explore/plan.ts'
import { spaceOfScenario } from '../harness/explore/declared-space.ts'
import { inProcessRunner } from '../harness/runners/runner.ts'
import type { CoverageRow, DiscoveredCoverageRow } from './figures.ts'

/** Plugin counts the covering sets are sized at. */
export const COVERAGE_PLUGINS = { from: 4, to: 16 } as const
/** Seeds each size is built with; the table reports the largest set (the sweep's seed decides which one a run gets). */
export const COVERAGE_SEEDS = ['0', '1', '2', '3', '4'] as const

function factorial(n: number): bigint {
  let product = 1n
  for (let k = 2n; k <= BigInt(n); k++) product *= k
  return product
}

/** The size of the `cover` set of `space` at `strength`, worst over `COVERAGE_SEEDS`. */
function worstCover(space: Space, strength: number): number {
  return Math.max(...COVERAGE_SEEDS.map(seed => coverRows(space, strength, seed).length))
}

/** The size of the `cover` set of `plugins` single-batch plugins at `strength`, worst over `COVERAGE_SEEDS`. */
export function coverSize(plugins: number, strength: number): number {
  return worstCover(spaceOf(Array.from({ length: plugins }, (_, index) => ({ id: `p${index}`, batches: 1 }))), strength)
}

/** Covering-set sizes at t = 2 and t = 3 next to n!, for n = 4…16. */
export function measureCoverage(): CoverageRow[] {
  const rows: CoverageRow[] = []
  for (let plugins = COVERAGE_PLUGINS.from; plugins <= COVERAGE_PLUGINS.to; plugins++) {
    rows.push({ plugins, t2: coverSize(plugins, 2), t3: coverSize(plugins, 3), factorial: factorial(plugins).toString() })
  }
  return rows
}

/**
 * The cover(3) plan over each scenario's discovered space (one run in
 * declaration order shows the timers that join their plugins' chains): its
 * row count (worst over the seeds), the interleavings `--strategy cover`
 * plans there with the scenario's own `budget:` lifted, next to n! of its
 * operations and the size of the space.
 */
export async function measureDiscoveredCoverage(files: readonly string[]): Promise<DiscoveredCoverageRow[]> {
  const rows: DiscoveredCoverageRow[] = []
  for (const file of files) {
    const scenario = { ...await loadScenario(file), budget: undefined }
    const space = await discoverSpace(scenario, inProcessRunner())
    const operations = space.chains.reduce((sum, chain) => sum + chain.ops.length, 0)
    const planned = Math.max(...COVERAGE_SEEDS.map(seed => planFor(scenario, { strategy: 'cover', strength: 3, budget: Number.MAX_SAFE_INTEGER, seed }, space).schedules.length))
    rows.push({
      scenario: scenario.name,
      declared: spaceOfScenario(scenario).chains.reduce((sum, chain) => sum + chain.ops.length, 0),
      operations,
      chains: space.chains.length,
      t3: worstCover(space, 3),
      planned,
      factorial: factorial(operations).toString(),
      size: spaceSize(space).toString(),
    })
  }
  return rows
}
