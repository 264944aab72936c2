/**
 * Immutability helpers shared by the session log and the request builder.
 */

/** Freezes `value` and everything reachable from it, in place. AbortSignals are skipped: they are live cancellation channels. */
export function deepFreeze<T>(value: T): T {
  const seen = new WeakSet<object>()
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null) continue
    if (node instanceof AbortSignal || seen.has(node)) continue
    seen.add(node)
    Object.freeze(node)
    for (const key of Reflect.ownKeys(node)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(node, key)
      if (descriptor && 'value' in descriptor) pending.push(descriptor.value)
    }
  }
  return value
}

/** The JSON values a lossless snapshot may contain. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** Thrown when a value cannot be represented as lossless JSON; `path` locates the offending part (`$` is the root). */
export class LosslessSnapshotError extends TypeError {
  override readonly name = 'LosslessSnapshotError'
  constructor(readonly path: string, readonly problem: string) {
    super(`value is not lossless JSON at ${path}: ${problem}`)
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

function describeObject(value: object): string | undefined {
  if (value instanceof Map) return 'a Map'
  if (value instanceof Set) return 'a Set'
  if (value instanceof Date) return 'a Date'
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === Object.prototype || prototype === null) return undefined
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name
  return `a class instance${typeof name === 'string' && name ? ` (${name})` : ''}`
}

function copy(value: unknown, path: string, ancestors: Set<object>): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw new LosslessSnapshotError(path, `non-finite number ${String(value)}`)
      if (Object.is(value, -0)) throw new LosslessSnapshotError(path, 'negative zero')
      return value
    case 'undefined':
      throw new LosslessSnapshotError(path, 'undefined value')
    case 'function':
      throw new LosslessSnapshotError(path, 'function')
    case 'bigint':
      throw new LosslessSnapshotError(path, 'BigInt')
    case 'symbol':
      throw new LosslessSnapshotError(path, 'symbol')
  }
  if (value === null) return null
  const object = value as object
  if (ancestors.has(object)) throw new LosslessSnapshotError(path, 'cycle')
  ancestors.add(object)
  try {
    if (Array.isArray(object)) return copyArray(object, path, ancestors)
    const kind = describeObject(object)
    if (kind) throw new LosslessSnapshotError(path, kind)
    return copyRecord(object, path, ancestors)
  } finally {
    ancestors.delete(object)
  }
}

function copyArray(array: readonly unknown[], path: string, ancestors: Set<object>): JsonValue[] {
  const result: JsonValue[] = []
  for (let index = 0; index < array.length; index++) {
    if (!Object.hasOwn(array, index)) throw new LosslessSnapshotError(childPath(path, index), 'sparse array hole')
    result.push(copy(array[index], childPath(path, index), ancestors))
  }
  return result
}

function copyRecord(record: object, path: string, ancestors: Set<object>): { [key: string]: JsonValue } {
  const result: { [key: string]: JsonValue } = {}
  for (const key of Reflect.ownKeys(record)) {
    if (typeof key === 'symbol') throw new LosslessSnapshotError(path, `symbol key ${key.toString()}`)
    const descriptor = Reflect.getOwnPropertyDescriptor(record, key)!
    if (!descriptor.enumerable) continue
    if (!('value' in descriptor)) throw new LosslessSnapshotError(childPath(path, key), 'accessor property')
    // defineProperty keeps a `__proto__` key an own data property instead of touching the prototype.
    Object.defineProperty(result, key, {
      value: copy(descriptor.value, childPath(path, key), ancestors),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return result
}

/**
 * A deep-frozen plain-JSON copy of `value` that round-trips through
 * `JSON.stringify`/`JSON.parse` without loss. Throws {@link LosslessSnapshotError}
 * (naming the path) on undefined values, functions, BigInt, symbols, -0,
 * NaN/±Infinity, sparse arrays, Map/Set/Date/class instances, accessors and cycles.
 * Shared (acyclic) references are copied once per occurrence.
 */
export function losslessSnapshot<T>(value: T): T {
  return deepFreeze(copy(value, '$', new Set())) as T
}
