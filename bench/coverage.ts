import { spaceOf } from '../harness/space/space.ts'
import { coverRows } from '../harness/strategies/cover.ts'
import type { CoverageRow } from './figures.ts'

/** Plugin counts the covering sets are sized at. */
export const COVERAGE_PLUGINS = { from: 4, to: 16 } as const
/** Seeds each size is built with; the table reports the largest set (the sweep's seed decides which one a run gets). */
export const COVERAGE_SEEDS = ['0', '1', '2', '3', '4'] as const

function factorial(n: number): bigint {
  let product = 1n
  for (let k = 2n; k <= BigInt(n); k++) product *= k
  return product
}

/** The size of the `cover` set of `plugins` single-batch plugins at `strength`, worst over `COVERAGE_SEEDS`. */
export function coverSize(plugins: number, strength: number): number {
  const space = spaceOf(Array.from({ length: plugins }, (_, index) => ({ id: `p${index}`, batches: 1 })))
  return Math.max(...COVERAGE_SEEDS.map(seed => coverRows(space, strength, seed).length))
}

/** Covering-set sizes at t = 2 and t = 3 next to n!, for n = 4…16. */
export function measureCoverage(): CoverageRow[] {
  const rows: CoverageRow[] = []
  for (let plugins = COVERAGE_PLUGINS.from; plugins <= COVERAGE_PLUGINS.to; plugins++) {
    rows.push({ plugins, t2: coverSize(plugins, 2), t3: coverSize(plugins, 3), factorial: factorial(plugins).toString() })
  }
  return rows
}
