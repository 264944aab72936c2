import { describe, expect, it } from 'vitest'
import { ExplorationLog } from '../../../harness/explore/log.ts'
import { parseOrderKey } from '../../../harness/explore/order-key.ts'
import { RealisedOrders } from '../../../harness/space/coverage.ts'
import { spaceOf } from '../../../harness/space/space.ts'
import type { InterleavingRecord } from '../../../harness/runners/runner.ts'

const SPACE = spaceOf([{ id: 'a', batches: 1 }, { id: 'b', batches: 2 }])

/** A run at plan position `index` with effective order `schedule` (every operation requested at once) and output `hash`. */
function run(index: number, schedule: string[], hash: string, json: string | undefined = `{"${hash}":true}`): InterleavingRecord {
  return { index, schedule, enabledAt: schedule.map(() => 0), unreached: [], hash, outcome: 'completed', tools: [], stuck: null, json }
}

describe('the exploration log', () => {
  it('groups runs by output, counts them, and orders outputs by their earliest plan position, whatever order they came in', () => {
    const log = new ExplorationLog(SPACE, undefined)
    log.add(run(3, ['a', 'b', 'b#2'], 'x'))
    log.add(run(1, ['b', 'a', 'b#2'], 'y'))
    log.add(run(0, ['b', 'b#2', 'a'], 'x'))
    log.add(run(2, ['a', 'b', 'b#2'], 'x', undefined))
    expect(log.runs).toBe(4)
    expect(log.outputs().map(group => [group.hash, group.count, group.first.index])).toEqual([['x', 3, 0], ['y', 1, 1]])
    expect(log.outputs()[0]!.first.schedule).toEqual(['b', 'b#2', 'a'])
    expect(log.outputs()[0]!.json).toBe('{"x":true}')
  })

  it('keeps the bytes of an output once, in its group, even when its first run came without them', () => {
    const log = new ExplorationLog(SPACE, undefined)
    log.add(run(0, ['a', 'b', 'b#2'], 'x', undefined))
    log.add(run(1, ['b', 'a', 'b#2'], 'x'))
    const [group] = log.outputs()
    expect(group!.json).toBe('{"x":true}')
    expect(group!.first.json).toBeUndefined()
  })

  it('counts distinct effective orders, not runs, and reports them as order keys', () => {
    const log = new ExplorationLog(SPACE, undefined)
    log.add(run(0, ['a', 'b', 'b#2'], 'x'))
    log.add(run(1, ['a', 'b', 'b#2'], 'x'))
    log.addOrder(['b', 'b#2', 'a'], [0, 1, 0])
    expect(log.distinct()).toBe(2)
    expect(log.orderKeys().map(parseOrderKey)).toEqual([
      { schedule: ['a', 'b', 'b#2'], enabledAt: [0, 0, 0] },
      { schedule: ['b', 'b#2', 'a'], enabledAt: [0, 1, 0] },
    ])
  })

  it('notes orders outside the discovered space: how many, and the first with why', () => {
    const log = new ExplorationLog(SPACE, undefined)
    log.add(run(0, ['a', 'b', 'b#2'], 'x'))
    expect(log.deviations).toBeNull()
    log.add(run(1, ['a', 'b', 'b#2', 'a#timer1'], 'x'))
    log.add(run(2, ['a', 'b', 'b#2', 'a#timer1'], 'x'))
    log.add(run(3, ['a', 'b#2', 'b'], 'x'))
    expect(log.deviations).toEqual({ count: 2, schedule: ['a', 'b', 'b#2', 'a#timer1'], reason: 'operation a#timer1 is not in the discovered space' })
  })

  it('counts the t-orders the effective orders realised, when asked to', () => {
    expect(new ExplorationLog(SPACE, undefined).coverage()).toBeUndefined()
    const space = spaceOf([{ id: 'a', batches: 1 }, { id: 'b', batches: 1 }])
    const log = new ExplorationLog(space, RealisedOrders.of(space, 2))
    log.add(run(0, ['a', 'b'], 'x'))
    expect(log.coverage()).toEqual({ strength: 2, realised: 1, total: 2 })
    log.add(run(1, ['b', 'a'], 'x'))
    expect(log.coverage()).toEqual({ strength: 2, realised: 2, total: 2 })
  })
})
