import { describe, expect, it } from 'vitest'
import { ApplyOrders } from '../../../harness/space/apply-orders.ts'
import { applyRows } from '../../../harness/space/apply-rows.ts'
import { achievable, applyStructure, predictedApplies, realisedApplies, unexplained, withTiesOf, type RecordedApply } from '../../../harness/space/applies.ts'
import { coverRows } from '../../../harness/strategies/cover.ts'
import { createRng } from '../../../harness/space/random.ts'
import type { Schedule, Space } from '../../../harness/space/space.ts'

/**
 * When plugins apply, as a function of the release order, and the plans
 * that aim at it. The expectations follow from the rule the structure
 * encodes: a plugin applies with the last release among the entries its
 * mounter and providers need; two plugins waiting on the same last release
 * apply at a tie, in the order a run showed.
 *
 * The shape of dsh's `advanced` tie: `tool-a` waits for three providers and
 * the spine, `tool-b` for the spine and a provider that itself waits for
 * the spine (as `tool-cordis` waits for `cordis-host-runner`). In the
 * natural order `tool-b`'s entries are read early, `tool-a`'s later, and the
 * spine last: both wait for the spine and apply at a tie, `tool-a` first,
 * since `tool-b` is readied only once its provider has applied. The reverse
 * puts `tool-a`'s needs first: `tool-a` first again. Only an order that
 * releases the spine early and `tool-a`'s last provider after all of
 * `tool-b`'s needs puts `tool-b` first.
 */

const entries = ['q', 'tool-b', 'p1', 'p2', 'p3', 'tool-a', 'spine']
const space: Space = { chains: entries.map(entry => ({ plugin: entry, ops: [entry] })) }
const ops = new Set(entries)

function apply(unit: string, released: number, providers: string[] = [], entry: string | null = unit, parent: string | null = 'include'): RecordedApply {
  return { unit, entry, parent, providers, released }
}

/** What the natural run (q, tool-b, p1, p2, p3, tool-a, spine) recorded. */
const natural: RecordedApply[] = [
  apply('include', 0, [], 'include', null),
  apply('p1', 3), apply('p2', 4), apply('p3', 5),
  apply('spine', 7),
  apply('spine › tools', 7, [], 'spine', 'spine'),
  apply('q', 7, ['spine › tools']),
  apply('tool-a', 7, ['spine › tools', 'p1', 'p2', 'p3']),
  apply('tool-b', 7, ['spine › tools', 'q']),
]
const structure = applyStructure({ released: entries, applies: natural }, ops)
const unit = (name: string) => structure.units.findIndex(candidate => candidate.unit === name)
const [A, B] = [unit('tool-a'), unit('tool-b')]

/** Whether tool-b applies before tool-a under `schedule`, by the structure. */
const bFirst = (schedule: Schedule) => {
  const order = predictedApplies(structure, schedule)
  return order.indexOf(B) < order.indexOf(A)
}

describe('the apply structure', () => {
  it('gives each plugin the entries it needs: its own, its mounter\'s and its providers\', transitively, the decision points only', () => {
    expect(Object.fromEntries(structure.units.map(each => [each.unit, each.needs]))).toEqual({
      'q': ['q', 'spine'], 'p1': ['p1'], 'p2': ['p2'], 'p3': ['p3'], 'spine': ['spine'], 'spine › tools': ['spine'],
      'tool-a': ['p1', 'p2', 'p3', 'spine', 'tool-a'], 'tool-b': ['q', 'spine', 'tool-b'],
    })
  })

  it('predicts applies by the last needed release, a tie in the order a run showed', () => {
    expect(bFirst(entries)).toBe(false)
    expect(bFirst([...entries].reverse())).toBe(false)
    expect(bFirst(['spine', 'q', 'tool-b', 'p1', 'p2', 'tool-a', 'p3'])).toBe(true)
  })

  it('at a tie, applies what the release readies at once before what waits for a plugin applying there too, and two entries\' own plugins in the order their entries were released', () => {
    // c and d wait for s; d also for h, which waits for s (tool-cordis waits for cordis-host-runner).
    const run = { released: ['s', 'h', 'c', 'd'], applies: [apply('s', 1), apply('h', 2, ['s']), apply('c', 3, ['s']), apply('d', 4, ['s', 'h'])] }
    const shaped = applyStructure(run, new Set(run.released))
    const order = (schedule: Schedule) => predictedApplies(shaped, schedule).map(index => shaped.units[index]!.unit)
    expect(order(['c', 'd', 'h', 's'])).toEqual(['s', 'c', 'h', 'd'])
    expect(order(['d', 'c', 'h', 's'])).toEqual(['s', 'c', 'h', 'd'])
    expect(order(['h', 'd', 'c', 's'])).toEqual(['s', 'h', 'c', 'd'])
    const pair = applyStructure({ released: ['s', 'c', 'e'], applies: [apply('s', 1), apply('c', 2, ['s']), apply('e', 3, ['s'])] }, new Set(['s', 'c', 'e']))
    const pairOrder = (schedule: Schedule) => predictedApplies(pair, schedule).map(index => pair.units[index]!.unit)
    expect(pairOrder(['e', 'c', 's'])).toEqual(['s', 'e', 'c'])
    expect(pairOrder(['c', 'e', 's'])).toEqual(['s', 'c', 'e'])
  })

  it('can change the order of two plugins when one needs an entry the other does not, and knows a tie it has seen', () => {
    const can = achievable(structure)
    expect([can(A, B), can(B, A)]).toEqual([true, true])
    // spine › tools needs only the spine, which tool-a needs too: tool-a never applies strictly before it; a tie was seen with spine › tools first.
    expect([can(unit('spine › tools'), A), can(A, unit('spine › tools'))]).toEqual([true, false])
  })

  it('reads a process\'s applies in structure order, and says when a process applied otherwise than recorded', () => {
    expect(realisedApplies(structure, [{ unit: 'tool-b' }, { unit: 'unknown' }, { unit: 'tool-a' }, { unit: 'tool-b' }])).toEqual([B, A])
    expect(unexplained(structure, natural, ops)).toBeUndefined()
    const moved = natural.map(each => each.unit === 'tool-b' ? { ...each, providers: ['spine › tools'] } : each)
    expect(unexplained(structure, moved, ops)).toBe('tool-b waited for spine, tool-b, not for q, spine, tool-b as recorded')
    expect(unexplained(structure, [...natural, apply('tool-c', 7, ['q'])], ops)).toBe('tool-c applied, which the recorded structure does not know')
  })

  it('sees a tie where two plugins\' last needed release was the same entry, and learns its order from every run that showed it', () => {
    const trio = new Set(['c', 'd', 's'])
    const sLast = { released: ['c', 'd', 's'], applies: [apply('s', 3), apply('c', 3, ['s']), apply('d', 3, ['s'])] }
    const sFirst = { released: ['s', 'c', 'd'], applies: [apply('s', 1), apply('c', 2, ['s']), apply('d', 3, ['s'])] }
    expect([...applyStructure(sLast, trio).ties]).toEqual(['c>d'])
    // With s released first, c and d applied at their own releases: no tie.
    expect([...applyStructure(sFirst, trio).ties]).toEqual([])
    const learnt = withTiesOf(applyStructure(sLast, trio), [{ released: ['d', 'c', 's'], applies: [apply('s', 3), apply('d', 3, ['s']), apply('c', 3, ['s'])] }])
    expect([...learnt.ties].sort()).toEqual(['c>d', 'd>c'])
  })

  it('never owes an order that puts an entry before one it is only requested after, nor a plugin before its mounter or provider', () => {
    // x is an entry of the include entry inc: requested only once inc was released.
    const requires = new Map([['x', new Set(['inc'])]])
    const run = { released: ['inc', 'x'], applies: [apply('inc', 1), apply('x', 2, [], 'x', 'inc'), apply('inc › svc', 1, [], 'inc', 'inc')] }
    const nested = applyStructure(run, new Set(['inc', 'x']), requires)
    const index = (name: string) => nested.units.findIndex(candidate => candidate.unit === name)
    const can = achievable(nested)
    expect(nested.units.find(candidate => candidate.unit === 'x')?.needs).toEqual(['inc', 'x'])
    expect([can(index('x'), index('inc')), can(index('inc'), index('x'))]).toEqual([false, true])
    expect(can(index('inc › svc'), index('inc'))).toBe(false)
  })
})

describe('a plan over applies', () => {
  it('flips the advanced shape in one row after the natural order, where the pair cover over imports never does', () => {
    const found = applyRows(space, structure, 2, createRng('test'), 1, [entries])!
    expect(found.rows.length).toBe(1)
    // The first row reverses the tie: tool-b before tool-a.
    expect(bFirst(found.rows[0]!)).toBe(true)
    // Two ties can be reversed (q before tool-a, tool-b before tool-a); tool-b waits for q, so one row shows one of them.
    expect(found.ties).toEqual({ reversed: 1, reversible: 2 })
    // Every owed order takes more rows than one; the plan says how many.
    expect(found.complete).toBe(false)
    expect(found.rowsNeeded).toBeGreaterThan(1)
    const whole = applyRows(space, structure, 2, createRng('test'), 10, [entries])!
    expect(whole.complete).toBe(true)
    expect(whole.rows.length).toBe(found.rowsNeeded)
    // The import cover at t = 2, relabelled after the natural order as loadrace test does: the natural order and its reverse.
    const importRows = coverRows(space, 2, '0')
    expect(importRows).toHaveLength(2)
    const rename = new Map(importRows[0]!.map((op, i) => [op, entries[i]!]))
    expect(importRows.map(row => row.map(op => rename.get(op)!)).some(bFirst)).toBe(false)
  })

  it('is checked on the applies that ran: the natural run\'s alone do not show every order the load order can give', () => {
    const table = ApplyOrders.of(structure, 2)!
    table.add(realisedApplies(structure, natural))
    expect(table.complete()).toBe(false)
    table.add(predictedApplies(structure, ['spine', 'q', 'tool-b', 'p1', 'p2', 'tool-a', 'p3']))
    table.add(predictedApplies(structure, [...entries].reverse()))
    const { realised, total } = table.counts()
    expect(realised).toBeLessThanOrEqual(total)
  })

  it('makes no row when what was seen already shows every order', () => {
    const single: Space = { chains: [{ plugin: 'x', ops: ['x'] }] }
    const alone = applyStructure({ released: ['x'], applies: [apply('x', 1)] }, new Set(['x']))
    expect(applyRows(single, alone, 2, createRng('t'), 10, [['x']])).toMatchObject({ rows: [], complete: true, strength: 2, rowsNeeded: 0 })
  })
})
