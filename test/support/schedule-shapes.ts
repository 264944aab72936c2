import fc from 'fast-check'

/**
 * Independent checks for schedule-space specs: they read operation labels
 * directly (`<plugin>` or `<plugin>#<batch>`) instead of going through the
 * harness's own space helpers, so a bug there cannot hide itself here.
 */

/** A plugin as the specs describe it. */
export interface Shape {
  id: string
  batches: number
}

/** `n` single-batch plugins p0 … p(n−1). */
export function plainShapes(n: number): Shape[] {
  return Array.from({ length: n }, (_, i) => ({ id: `p${i}`, batches: 1 }))
}

/** Splits a label into plugin and batch. */
export function labelParts(op: string): { plugin: string; batch: number } {
  const [plugin, batch] = op.split('#')
  return { plugin: plugin as string, batch: batch === undefined ? 1 : Number(batch) }
}

/** Every operation label of `shapes`, declaration order. */
export function labelsOf(shapes: readonly Shape[]): string[] {
  return shapes.flatMap(({ id, batches }) => Array.from({ length: batches }, (_, i) => (i === 0 ? id : `${id}#${i + 1}`)))
}

/** n! / Πk! computed with plain numbers (fine for the small spaces specs use). */
export function multinomial(shapes: readonly Shape[]): number {
  const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1))
  const total = shapes.reduce((sum, shape) => sum + shape.batches, 0)
  return shapes.reduce((size, shape) => size / factorial(shape.batches), factorial(total))
}

/** Whether `schedule` runs every operation of `shapes` exactly once, batches of a plugin in order. */
export function validSchedule(shapes: readonly Shape[], schedule: readonly string[]): boolean {
  const expected = labelsOf(shapes)
  if (schedule.length !== expected.length || new Set(schedule).size !== schedule.length) return false
  if (!schedule.every((op) => expected.includes(op))) return false
  const lastBatch = new Map<string, number>()
  for (const op of schedule) {
    const { plugin, batch } = labelParts(op)
    if (batch !== (lastBatch.get(plugin) ?? 0) + 1) return false
    lastBatch.set(plugin, batch)
  }
  return true
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()]
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]))
}

function subsets<T>(items: readonly T[], size: number, from = 0): T[][] {
  if (size === 0) return [[]]
  const out: T[][] = []
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of subsets(items, size - 1, i + 1)) out.push([items[i] as T, ...rest])
  }
  return out
}

/** Whether an order of some operations agrees with their plugins' batch order. */
function feasible(order: readonly string[]): boolean {
  return order.every((a, i) =>
    order.slice(i + 1).every((b) => {
      const pa = labelParts(a)
      const pb = labelParts(b)
      return pa.plugin !== pb.plugin || pa.batch < pb.batch
    }),
  )
}

/**
 * The t-orders of `shapes` (every t-subset in every order the batches allow)
 * that no row realises; empty when `rows` is a t-way covering set.
 */
export function missingOrders(shapes: readonly Shape[], rows: readonly (readonly string[])[], t: number): string[] {
  const positions = rows.map((row) => new Map(row.map((op, index) => [op, index])))
  const missing: string[] = []
  for (const subset of subsets(labelsOf(shapes), Math.min(t, labelsOf(shapes).length))) {
    const realised = new Set(
      positions.map((position) => subset.slice().sort((a, b) => (position.get(a) as number) - (position.get(b) as number)).join(' ')),
    )
    for (const order of permutations(subset)) {
      if (feasible(order) && !realised.has(order.join(' '))) missing.push(order.join(' '))
    }
  }
  return missing
}

/** Random small scenario shapes: 1 … maxPlugins plugins of 1 … maxBatches batches. */
export function shapesArbitrary(maxPlugins: number, maxBatches: number): fc.Arbitrary<Shape[]> {
  return fc
    .array(fc.integer({ min: 1, max: maxBatches }), { minLength: 1, maxLength: maxPlugins })
    .map((batches) => batches.map((count, i) => ({ id: `plugin-${i}`, batches: count })))
}
