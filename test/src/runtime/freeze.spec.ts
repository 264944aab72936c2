import { describe, expect, it } from 'vitest'
import { deepFreeze, losslessSnapshot, LosslessSnapshotError } from '../../../src/runtime/freeze.ts'

describe('deepFreeze', () => {
  it('freezes the value and everything reachable from it, in place', () => {
    const value = { a: [1, { b: 'x' }], c: { d: { e: [] as number[] } }, [Symbol('s')]: { f: 1 } }
    expect(deepFreeze(value)).toBe(value)
    const reachable = [value, value.a, value.a[1], value.c, value.c.d, value.c.d.e, Object.values(Object.getOwnPropertyDescriptors(value)).at(-1)!.value]
    for (const node of reachable) expect(Object.isFrozen(node)).toBe(true)
    expect(() => { value.c.d.e.push(1) }).toThrow(TypeError)
  })

  it('leaves an AbortSignal live, inside a frozen value', () => {
    const controller = new AbortController()
    const value = deepFreeze({ signal: controller.signal })
    expect(Object.isFrozen(value)).toBe(true)
    expect(Object.isFrozen(controller.signal)).toBe(false)
    controller.abort()
    expect(value.signal.aborted).toBe(true)
  })

  it('ends on cycles, passes primitives through and never calls a getter', () => {
    const cycle: { self?: unknown } = {}
    cycle.self = cycle
    expect(deepFreeze(cycle)).toBe(cycle)
    expect(Object.isFrozen(cycle)).toBe(true)
    for (const primitive of [1, 'a', null, undefined, true]) expect(deepFreeze(primitive)).toBe(primitive)
    let read = 0
    deepFreeze({ get lazy() { read++; return {} } })
    expect(read).toBe(0)
  })
})

describe('losslessSnapshot', () => {
  it('is a deep-frozen copy that survives JSON.stringify and JSON.parse unchanged', () => {
    const value = { s: 'x', n: -1.5, t: true, z: null, list: [0, [], {}], nested: { k: ['a'] } }
    const snapshot = losslessSnapshot(value)
    expect(snapshot).not.toBe(value)
    expect(snapshot).toStrictEqual(value)
    expect(JSON.parse(JSON.stringify(snapshot))).toStrictEqual(snapshot)
    expect(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.list) && Object.isFrozen(snapshot.nested.k)).toBe(true)
    expect(Object.isFrozen(value)).toBe(false)
  })

  it('keeps key order, a `__proto__` key as an own key, and copies a shared object once per occurrence', () => {
    const shared = { v: 1 }
    const value = JSON.parse('{"b":1,"a":2,"__proto__":{"p":3}}') as Record<string, unknown>
    const snapshot = losslessSnapshot({ ...value, one: shared, two: shared } as Record<string, unknown>)
    expect(Object.keys(snapshot)).toEqual(['b', 'a', '__proto__', 'one', 'two'])
    expect(Object.getPrototypeOf(snapshot)).toBe(Object.prototype)
    expect(JSON.stringify(snapshot)).toBe('{"b":1,"a":2,"__proto__":{"p":3},"one":{"v":1},"two":{"v":1}}')
    expect(snapshot.one).not.toBe(snapshot.two)
  })

  it('accepts an object without prototype and skips non-enumerable keys, as JSON does', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 })
    Object.defineProperty(bare, 'hidden', { value: 2, enumerable: false })
    expect(JSON.stringify(losslessSnapshot(bare))).toBe('{"a":1}')
  })

  class Point { x = 1 }
  const holey = [1, , 3]
  const cycle: Record<string, unknown> = { list: [] }
  ;(cycle.list as unknown[]).push(cycle)
  const cases: [string, unknown, string, string][] = [
    ['an undefined value', { a: undefined }, '$.a', 'undefined value'],
    ['a function', [() => 1], '$[0]', 'function'],
    ['a BigInt', { big: 1n }, '$.big', 'BigInt'],
    ['a symbol', { s: Symbol('x') }, '$.s', 'symbol'],
    ['negative zero', { 'z-z': -0 }, '$["z-z"]', 'negative zero'],
    ['NaN', { a: [NaN] }, '$.a[0]', 'non-finite number NaN'],
    ['Infinity', { a: -Infinity }, '$.a', 'non-finite number -Infinity'],
    ['a sparse array', { holey }, '$.holey[1]', 'sparse array hole'],
    ['a Map', { m: new Map() }, '$.m', 'a Map'],
    ['a Set', { s: new Set() }, '$.s', 'a Set'],
    ['a Date', { d: new Date(0) }, '$.d', 'a Date'],
    ['a class instance', { p: new Point() }, '$.p', 'a class instance (Point)'],
    ['an accessor', { get g() { return 1 } }, '$.g', 'accessor property'],
    ['a symbol key', { inner: { [Symbol('k')]: 1 } }, '$.inner', 'symbol key Symbol(k)'],
    ['a cycle', cycle, '$.list[0]', 'cycle'],
    ['undefined itself', undefined, '$', 'undefined value'],
  ]
  it.each(cases)('rejects %s, naming where it is', (_, value, path, problem) => {
    let thrown: unknown
    try {
      losslessSnapshot(value)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(LosslessSnapshotError)
    expect(thrown).toBeInstanceOf(TypeError)
    expect(thrown).toMatchObject({ name: 'LosslessSnapshotError', path, problem, message: `value is not lossless JSON at ${path}: ${problem}` })
  })
})
