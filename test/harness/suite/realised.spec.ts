import { describe, expect, it } from 'vitest'
import { ordersKnown, sideRun } from '../../../harness/suite/realised.ts'

const test = { file: 'a.test.mjs', name: 'alpha first' }
const boot = (released: string[], by?: { file: string, name: string }) => ({
  configuration: 'c.yml', released, ...by === undefined ? {} : { test: { ...by, kind: 'test' as const } },
})

describe('which orders a run realised for a test are known', () => {
  it('are known when the run says which boots were the test\'s, or when every boot of a configuration loaded it alike', () => {
    expect(ordersKnown([boot(['a', 'b']), boot(['a', 'b'])], test)).toBe(true)
    expect(ordersKnown([boot(['b', 'a']), boot(['a', 'b'], test)], test)).toBe(true)
    // Two boots in opposite orders, neither known to be the test's: the first may be another test's.
    expect(ordersKnown([boot(['a', 'b']), boot(['b', 'a'])], test)).toBe(false)
    expect(ordersKnown([boot(['a', 'b']), { configuration: 'd.yml', released: ['b', 'a'] }], test)).toBe(true)
    // Released in two orders that applied the plugins alike: a rerun under either shows the test the same.
    const applied = (released: string[], units: string[]) => ({ ...boot(released), applies: units.map(unit => ({ unit, entry: unit, parent: 'include', providers: [], released: 1 })) })
    expect(ordersKnown([applied(['a', 'b', 'p'], ['p', 'a', 'b']), applied(['p', 'a', 'b'], ['p', 'a', 'b'])], test)).toBe(true)
    expect(ordersKnown([applied(['p', 'a', 'b'], ['p', 'a', 'b']), applied(['p', 'b', 'a'], ['p', 'b', 'a'])], test)).toBe(false)
  })

  it('takes a side from the first run with that result whose orders are known, else the first with it', () => {
    const results = [{ run: 'natural', status: 'passed' as const }, { run: 'schedule-1', status: 'failed' as const }, { run: 'schedule-2', status: 'passed' as const }]
    expect(sideRun(test, results, 'passed', run => run !== 'natural')).toBe('schedule-2')
    expect(sideRun(test, results, 'passed', () => true)).toBe('natural')
    expect(sideRun(test, results, 'passed', () => false)).toBe('natural')
    expect(sideRun(test, results, 'passed')).toBe('natural')
    expect(sideRun(test, results, 'failed', () => false)).toBe('schedule-1')
    expect(sideRun(test, results, 'skipped')).toBeUndefined()
  })
})
