import { describe, expect, it } from 'vitest'
import type { BootRecord } from '../../../harness/preload/protocol.js'
import { configurationGuarantee, discoveredConfigurations, naturalOrder, planConfigurations, rowCount, relabelled, rowsOfRun, runsNeeded, type ConfigurationPlan } from '../../../harness/suite/plan.ts'

function record(configuration: string, released: string[], enabledAt: number[] = released.map(() => 0)): BootRecord {
  return { pid: 1, thread: 0, boot: 1, argv: [], mode: 'natural', configuration, released, requested: released.map((label, i) => ({ label, enabledAt: enabledAt[i]! })), failedImports: [] }
}

const settings = { strategy: 'cover' as const, strength: 2, budget: 50, seed: '0' }

/** What the plan claims once the natural run (when it counts) and `explored` runs after it ran, before what ran is checked. */
function claim(plan: ConfigurationPlan, explored: number) {
  const counted = explored + (plan.natural === undefined ? 0 : 1)
  return plan.plan.guarantee(counted, counted >= rowCount(plan))
}

describe('plans keyed by configuration', () => {
  it('discovers each configuration\'s entries across its processes, in first-request order', () => {
    const found = discoveredConfigurations([record('b.yml', ['x', 'y']), record('a.yml', ['p']), record('b.yml', ['y', 'z'])])
    expect([...found.keys()]).toEqual(['a.yml', 'b.yml'])
    expect(found.get('b.yml')).toEqual({ entries: ['x', 'y', 'z'], processes: 2 })
  })

  it('plans each configuration with the strategy, and run k gives each its k-th row, starting over when it has fewer', () => {
    // Two processes of each configuration disagreeing: the natural order is no row, every row is a run's.
    const plans = planConfigurations([record('small.yml', ['a', 'b']), record('small.yml', ['b', 'a']), record('big.yml', ['a', 'b', 'c', 'd', 'e']), record('big.yml', ['e', 'a', 'b', 'c', 'd'])], { ...settings, strategy: 'exhaustive', budget: 6 })
    const small = plans.find(plan => plan.configuration === 'small.yml')!
    const big = plans.find(plan => plan.configuration === 'big.yml')!
    expect(small.natural).toBeUndefined()
    expect(small.rows).toHaveLength(2)
    expect(big.rows).toHaveLength(6)
    expect(runsNeeded(plans)).toBe(6)
    expect(rowsOfRun(plans, 3)).toEqual({ 'big.yml': big.rows[3], 'small.yml': small.rows[1] })
  })

  it('counts the natural run\'s order as the first row when every process of the configuration released that one order', () => {
    const natural = ['c', 'a', 'd', 'b']
    const [plan] = planConfigurations([record('c.yml', natural), record('c.yml', natural)], settings)
    const [unseeded] = planConfigurations([record('c.yml', ['a', 'b', 'c', 'd']), record('c.yml', ['b', 'a', 'c', 'd'])], settings)
    expect(plan!.natural).toEqual(natural)
    // The same number of rows in all, one of them the natural run's: one run fewer.
    expect(rowCount(plan!)).toBe(unseeded!.rows.length)
    expect(runsNeeded([plan!])).toBe(unseeded!.rows.length - 1)
    expect(plan!.rows.map(row => row.join())).not.toContain(natural.join())
    // 2-way: every pair of entries in both orders over the natural order and the runs' rows.
    for (const x of natural) {
      for (const y of natural) {
        if (x === y) continue
        expect([natural, ...plan!.rows].some(row => row.indexOf(x) < row.indexOf(y)), `${x} before ${y}`).toBe(true)
      }
    }
    expect(claim(plan!, 0)).toEqual(claim(unseeded!, 0))
    expect(claim(plan!, plan!.rows.length)).toEqual({ kind: 't-way', strength: 2 })
    const realised = [record('c.yml', natural), ...plan!.rows.map(row => ({ ...record('c.yml', [...row]), mode: 'row' as const, row }))]
    expect(configurationGuarantee(plan!, plan!.rows.length, realised)).toEqual({ kind: 't-way', strength: 2 })
    // Without the natural run's processes the runs' rows alone do not hold every pair both ways.
    expect(configurationGuarantee(plan!, plan!.rows.length, realised.slice(1))).toEqual({ kind: 'sampled' })
  })

  it('cycles a configuration with fewer rows from the natural order', () => {
    const plans = planConfigurations([record('one.yml', ['only']), record('two.yml', ['a', 'b', 'c'])], { ...settings, strategy: 'exhaustive', budget: 6 })
    const one = plans.find(plan => plan.configuration === 'one.yml')!
    expect(one.rows).toEqual([])
    expect(runsNeeded(plans)).toBe(5)
    for (let k = 0; k < 5; k++) expect(rowsOfRun(plans, k)['one.yml']).toEqual(['only'])
    const two = plans.find(plan => plan.configuration === 'two.yml')!
    expect(new Set([two.natural, ...two.rows].map(row => row!.join())).size).toBe(6)
  })

  it('counts no natural order for a sharded run: its shards\' natural runs may load differently', () => {
    const agreeing = [record('c.yml', ['c', 'a', 'd', 'b']), record('c.yml', ['c', 'a', 'd', 'b'])]
    const [counted] = planConfigurations(agreeing, settings)
    const [sharded] = planConfigurations(agreeing, { ...settings, countsNatural: false })
    const [otherShard] = planConfigurations([record('c.yml', ['a', 'c', 'd', 'b']), record('c.yml', ['d', 'b', 'c', 'a'])], { ...settings, countsNatural: false })
    expect(counted!.natural).toBeDefined()
    expect(sharded!.natural).toBeUndefined()
    // The plan is the strategy's own, whatever order the natural run requested and loaded in.
    expect(sharded!.rows).toEqual(otherShard!.rows)
    expect(claim(sharded!, sharded!.rows.length - 1)).toEqual({ kind: 'sampled' })
    expect(claim(sharded!, sharded!.rows.length)).toEqual({ kind: 't-way', strength: 2 })
  })

  // The fixture's broken tie: alpha and beta each inject prompt's service, so released before prompt they apply at its
  // release, in the order their own imports were released. A natural run shows such a tie, or none, as the load falls.
  const needs: Record<string, string[]> = { prompt: [], alpha: ['prompt'], beta: ['prompt'] }
  const booted = (released: readonly string[]): BootRecord => {
    const at = (entry: string) => released.indexOf(entry) + 1
    const applies = Object.keys(needs).map(unit => ({ unit, entry: unit, parent: 'include', providers: needs[unit]!, released: Math.max(at(unit), ...needs[unit]!.map(at)) }))
      .sort((a, b) => a.released - b.released || needs[a.unit]!.length - needs[b.unit]!.length || at(a.unit) - at(b.unit))
    return { ...record('broken.yml', [...released]), applies }
  }
  /** The order alpha and beta apply in, in a boot released in `released`. */
  const tieOrder = (released: readonly string[]) => booted(released).applies!.map(apply => apply.unit).filter(unit => unit !== 'prompt').join(' before ')

  it('counts no order of a natural run whose processes applied the plugins in different orders: each test saw one, so the runs\' rows give every order to every test', () => {
    // Two tests' boots of one cordis.yml in the natural run, one per order of the tie: between them both orders were
    // seen, but each test saw only its own. Every test boots in every run after the natural run, so only rows reach all.
    const natural = [['prompt', 'alpha', 'beta'], ['prompt', 'beta', 'alpha']]
    expect(natural.map(tieOrder)).toEqual(['alpha before beta', 'beta before alpha'])
    const [plan] = planConfigurations(natural.map(booted), { strategy: 'applies', budget: 5, seed: '0' })
    expect(plan!.counted).toEqual([])
    expect(new Set(plan!.rows.map(tieOrder))).toEqual(new Set(['alpha before beta', 'beta before alpha']))
    // When they agreed, the one order they showed is counted, and the rows give the other.
    const [agreed] = planConfigurations([booted(natural[0]!), booted(natural[0]!)], { strategy: 'applies', budget: 5, seed: '0' })
    expect(agreed!.counted).toEqual([natural[0]])
    expect(agreed!.rows.map(tieOrder)).toContain('beta before alpha')
    expect(agreed!.rows.map(tieOrder)).not.toContain('alpha before beta')
    // Released in two orders that apply the plugins alike (alpha and beta wait for prompt either way): every test saw
    // one apply order, and both release orders count.
    const alike = [['alpha', 'beta', 'prompt'], ['prompt', 'alpha', 'beta']]
    expect(alike.map(tieOrder)).toEqual(['alpha before beta', 'alpha before beta'])
    const [same] = planConfigurations(alike.map(booted), { strategy: 'applies', budget: 5, seed: '0' })
    expect(same!.counted).toEqual(alike)
    expect(same!.rows.map(tieOrder)).toContain('beta before alpha')
  })

  it('plans a sharded run over applies from what every shard shares: their rows add up whatever order each natural run loaded in', () => {
    const sharded = { strategy: 'applies' as const, budget: 2, seed: '0', countsNatural: false }
    const orders = [['prompt', 'beta', 'alpha'], ['beta', 'alpha', 'prompt'], ['alpha', 'beta', 'prompt'], ['prompt', 'alpha', 'beta']]
    const plans = orders.map(natural => planConfigurations([booted(natural), booted(natural)], sharded)[0]!)
    for (const plan of plans) expect(plan.rows).toEqual(plans[0]!.rows)
    // Shard 1 runs the first row of its own plan, shard 2 the second of its own; the merge checks what they realised.
    const [one, two] = [plans[0]!, plans[1]!]
    const followed = (row: readonly string[]): BootRecord => ({ ...booted(row), mode: 'row', row: [...row] })
    const records = [booted(orders[0]!), booted(orders[1]!), followed(one.rows[0]!), followed(two.rows[1]!)]
    expect(configurationGuarantee(one, 2, records)).toEqual({ kind: 'applies', strength: 2 })
    // A natural run's boot is no evidence for the claim: it showed its order to its own shard's tests only. With one row
    // run, the order the other row gives is shown by a natural boot alone.
    const other = orders.find(order => tieOrder(order) !== tieOrder(one.rows[0]!))!
    expect(configurationGuarantee(one, 2, [booted(other), followed(one.rows[0]!)])).toEqual({ kind: 'sampled' })
    expect(configurationGuarantee(one, 2, [followed(other), followed(one.rows[0]!)])).toEqual({ kind: 'applies', strength: 2 })
  })

  it('relabels rows entry for entry', () => {
    expect(relabelled([['a', 'b', 'c'], ['c', 'b', 'a'], ['b', 'a', 'c']], ['z', 'x', 'y'])).toEqual([['z', 'x', 'y'], ['y', 'x', 'z'], ['x', 'z', 'y']])
    expect(naturalOrder([record('c.yml', ['a', 'b'])], 'c.yml', ['a', 'b', 'c'])).toBeUndefined()
    expect(naturalOrder([record('c.yml', ['b', 'a']), record('d.yml', ['a', 'b'])], 'c.yml', ['a', 'b'])).toEqual(['b', 'a'])
  })

  it('keeps a t-way claim only when the realised orders hold every order the system allows', () => {
    const [plan] = planConfigurations([record('c.yml', ['a', 'b', 'c']), record('c.yml', ['b', 'a', 'c'])], settings)
    expect(plan!.natural).toBeUndefined()
    expect(claim(plan!, plan!.rows.length)).toEqual({ kind: 't-way', strength: 2 })
    const realised = plan!.rows.map(row => ({ ...record('c.yml', [...row]), mode: 'row' as const, row }))
    expect(configurationGuarantee(plan!, plan!.rows.length, realised)).toEqual({ kind: 't-way', strength: 2 })
    // Every process loaded in one order: b never came before a, though nothing forced it.
    expect(configurationGuarantee(plan!, plan!.rows.length, [record('c.yml', ['a', 'b', 'c'])])).toEqual({ kind: 'sampled' })
    // c was only ever requested after a and b were released: it depends on them, and orders putting it first are not owed.
    const dependent = [record('c.yml', ['a', 'b', 'c'], [0, 0, 2]), record('c.yml', ['b', 'a', 'c'], [0, 0, 2])].map(boot => ({ ...boot, mode: 'row' as const, row: boot.released }))
    expect(configurationGuarantee(plan!, plan!.rows.length, dependent)).toEqual({ kind: 't-way', strength: 2 })
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

describe('a plan cut short of its strength', () => {
  const entries = ['a', 'b', 'c', 'd', 'e', 'f']
  const cut = { ...settings, strength: 3, budget: 3 }

  it('claims the highest lower strength its realised orders complete, not only sampled', () => {
    const [plan] = planConfigurations([record('c.yml', entries)], cut)
    expect(claim(plan!, plan!.rows.length)).toEqual({ kind: 'sampled' })
    const rows = [plan!.natural!, ...plan!.rows]
    // The first rows of this 3-way covering set hold every pair of entries both ways, which the check below derives independently.
    const bothWays = entries.every(x => entries.every(y => x === y || rows.some(row => row.indexOf(x) < row.indexOf(y))))
    expect(bothWays).toBe(true)
    const realised = [record('c.yml', entries), ...plan!.rows.map(row => ({ ...record('c.yml', [...row]), mode: 'row' as const, row }))]
    expect(configurationGuarantee(plan!, plan!.rows.length, realised)).toEqual({ kind: 't-way', strength: 2 })
  })

  it('stays sampled when its processes did not realise every pair both ways', () => {
    const [plan] = planConfigurations([record('c.yml', entries)], cut)
    expect(configurationGuarantee(plan!, plan!.rows.length, [record('c.yml', entries)])).toEqual({ kind: 'sampled' })
  })

  it('a plan at the default strength 2 cut short stays sampled, whatever its processes realised', () => {
    const [plan] = planConfigurations([record('c.yml', entries), record('c.yml', [...entries].reverse())], { ...settings, budget: 1 })
    const realised = [record('c.yml', entries), record('c.yml', [...entries].reverse())]
    expect(claim(plan!, 1)).toEqual({ kind: 'sampled' })
    expect(configurationGuarantee(plan!, 1, realised)).toEqual({ kind: 'sampled' })
  })
})
