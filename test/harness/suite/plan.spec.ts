import { describe, expect, it } from 'vitest'
import type { ProcessRecord } from '../../../harness/preload/protocol.js'
import { discoveredConfigurations, planConfigurations, realisedGuarantee, rowsOfRun, runsNeeded } from '../../../harness/suite/plan.ts'

function record(configuration: string, released: string[], enabledAt: number[] = released.map(() => 0)): ProcessRecord {
  return { pid: 1, thread: 0, argv: [], mode: 'reference', configuration, released, requested: released.map((label, i) => ({ label, enabledAt: enabledAt[i]! })), failedImports: [] }
}

const settings = { strategy: 'cover' as const, strength: 2, budget: 50, seed: '0' }

describe('plans keyed by configuration', () => {
  it('discovers each configuration\'s entries across its processes, in first-request order', () => {
    const found = discoveredConfigurations([record('b.yml', ['x', 'y']), record('a.yml', ['p']), record('b.yml', ['y', 'z'])])
    expect([...found.keys()]).toEqual(['a.yml', 'b.yml'])
    expect(found.get('b.yml')).toEqual({ entries: ['x', 'y', 'z'], processes: 2 })
  })

  it('plans each configuration with the strategy, and run k gives each its k-th row, starting over when it has fewer', () => {
    const plans = planConfigurations([record('small.yml', ['a', 'b']), record('big.yml', ['a', 'b', 'c', 'd', 'e'])], { ...settings, strategy: 'exhaustive', budget: 6 })
    const small = plans.find(plan => plan.configuration === 'small.yml')!
    const big = plans.find(plan => plan.configuration === 'big.yml')!
    expect(small.rows).toHaveLength(2)
    expect(big.rows).toHaveLength(6)
    expect(runsNeeded(plans)).toBe(6)
    expect(rowsOfRun(plans, 3)).toEqual({ 'big.yml': big.rows[3], 'small.yml': small.rows[1] })
  })

  it('keeps a t-way claim only when the realised orders hold every order the system allows', () => {
    const [plan] = planConfigurations([record('c.yml', ['a', 'b', 'c'])], settings)
    expect(plan!.guarantee(plan!.rows.length)).toEqual({ kind: 't-way', strength: 2 })
    const realised = plan!.rows.map(row => ({ ...record('c.yml', [...row]), mode: 'row' as const, row }))
    expect(realisedGuarantee(plan!, plan!.rows.length, realised)).toEqual({ kind: 't-way', strength: 2 })
    // Every process loaded in one order: b never came before a, though nothing forced it.
    expect(realisedGuarantee(plan!, plan!.rows.length, [record('c.yml', ['a', 'b', 'c'])])).toEqual({ kind: 'sampled' })
    // c was only ever requested after a and b were released: it depends on them, and orders putting it first are not owed.
    const dependent = [record('c.yml', ['a', 'b', 'c'], [0, 0, 2]), record('c.yml', ['b', 'a', 'c'], [0, 0, 2])]
    expect(realisedGuarantee(plan!, plan!.rows.length, dependent)).toEqual({ kind: 't-way', strength: 2 })
  })
})

describe('a process that did not follow its row', () => {
  it('is noted only for an inversion the loader did not force', async () => {
    const { unforcedInversion } = await import('../../../harness/suite/test-suite.ts')
    const record = (row: string[], released: string[], enabledAt: Record<string, number>) => ({ row, released, requested: released.map(label => ({ label, enabledAt: enabledAt[label] ?? 0 })) })
    // The row puts the include's child before the include, but the child was only requested once the include was released.
    expect(unforcedInversion(record(['base.a', 'base'], ['base', 'base.a'], { 'base.a': 1 }))).toBeUndefined()
    // Both were waiting, and the row's first went second.
    expect(unforcedInversion(record(['a', 'b', 'c'], ['a', 'c', 'b'], {}))).toEqual(['b', 'c'])
    expect(unforcedInversion(record(['a', 'b'], ['a', 'b'], {}))).toBeUndefined()
  })
})
