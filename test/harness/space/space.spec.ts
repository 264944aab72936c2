import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { distinctDraws } from '../../../harness/space/distinct.ts'
import { isSchedule, opLabel, parseOp, pluginOf, scheduleFromOwners, spaceOf, spaceSize } from '../../../harness/space/space.ts'
import { labelsOf, multinomial, plainShapes, shapesArbitrary, validSchedule } from '../../support/schedule-shapes.ts'

describe('schedule space', () => {
  it('labels a plugin import with its id and later batches with #k', () => {
    const space = spaceOf([{ id: 'tool-fs', batches: 3 }, { id: 'tool-todo', batches: 1 }])
    expect(space.chains).toEqual([
      { plugin: 'tool-fs', ops: ['tool-fs', 'tool-fs#2', 'tool-fs#3'] },
      { plugin: 'tool-todo', ops: ['tool-todo'] },
    ])
    expect(opLabel('x', 1)).toBe('x')
    expect(opLabel('x', 4)).toBe('x#4')
    expect(pluginOf('tool-fs#3')).toBe('tool-fs')
    expect(pluginOf('tool.v2_x')).toBe('tool.v2_x')
    expect(parseOp('tool-fs#12')).toEqual({ plugin: 'tool-fs', kind: 'batch', batch: 12 })
    expect(parseOp('tool-fs')).toEqual({ plugin: 'tool-fs', kind: 'import' })
    expect(parseOp('tool-fs#timer3')).toEqual({ plugin: 'tool-fs', kind: 'timer', timer: 3 })
    expect(parseOp('_root#timer1')).toEqual({ plugin: '_root', kind: 'timer', timer: 1 })
    expect(parseOp('_root')).toBeUndefined()
    expect(parseOp('tool-fs#timer0')).toBeUndefined()
    expect(pluginOf('tool-fs#timer2')).toBe('tool-fs')
    expect(parseOp('tool-fs#1')).toBeUndefined()
    expect(() => pluginOf('a,b')).toThrow(/not an operation label/)
  })

  it('rejects malformed plugins', () => {
    expect(() => spaceOf([{ id: 'a:b', batches: 1 }])).toThrow(/must match/)
    expect(() => spaceOf([{ id: '', batches: 1 }])).toThrow(/must match/)
    expect(() => spaceOf([{ id: 'a', batches: 1 }, { id: 'a', batches: 2 }])).toThrow(/declared twice/)
    expect(() => spaceOf([{ id: 'a', batches: 0 }])).toThrow(/batches/)
    expect(() => spaceOf([{ id: 'a', batches: 1.5 }])).toThrow(/batches/)
  })

  it('sizes spaces with the multinomial', () => {
    expect(spaceSize(spaceOf([]))).toBe(1n)
    expect(spaceSize(spaceOf(plainShapes(8)))).toBe(40_320n)
    expect(spaceSize(spaceOf(plainShapes(12)))).toBe(479_001_600n)
    expect(spaceSize(spaceOf(plainShapes(25)))).toBe(15_511_210_043_330_985_984_000_000n)
    expect(spaceSize(spaceOf([{ id: 'a', batches: 2 }, { id: 'b', batches: 3 }, { id: 'c', batches: 1 }]))).toBe(60n)
    fc.assert(fc.property(shapesArbitrary(5, 4), (shapes) => spaceSize(spaceOf(shapes)) === BigInt(multinomial(shapes))))
  })

  it('recognises schedules exactly as the independent oracle does', () => {
    fc.assert(
      fc.property(
        shapesArbitrary(4, 3).chain((shapes) => fc.tuple(fc.constant(shapes), fc.shuffledSubarray([...labelsOf(shapes), 'stranger'], { minLength: 1 }))),
        ([shapes, candidate]) => isSchedule(spaceOf(shapes), candidate) === validSchedule(shapes, candidate),
      ),
      { numRuns: 300 },
    )
    expect(isSchedule(spaceOf(plainShapes(2)), ['p0', 'p0'])).toBe(false)
  })

  it('turns an owner sequence into a schedule and refuses one that does not fit', () => {
    const space = spaceOf([{ id: 'a', batches: 2 }, { id: 'b', batches: 1 }])
    expect(scheduleFromOwners(space, [0, 1, 0])).toEqual(['a', 'b', 'a#2'])
    expect(() => scheduleFromOwners(space, [1, 1, 0])).toThrow(/does not fit/)
    expect(() => scheduleFromOwners(space, [2])).toThrow(/does not fit/)
  })

  it('draws distinct schedules with bounded retries', () => {
    const space = spaceOf(plainShapes(3))
    let draws = 0
    const constant = [...distinctDraws(space, () => { draws++; return ['p0', 'p1', 'p2'] }, { limit: 10, patience: 5 })]
    expect(constant).toEqual([['p0', 'p1', 'p2']])
    expect(draws).toBe(6) // one new schedule, then five repeats in a row
    const seen = new Set(['p0,p1,p2'])
    const skipping = [...distinctDraws(space, () => ['p0', 'p1', 'p2'], { limit: 10, seen, patience: 3 })]
    expect(skipping).toEqual([])
  })
})
