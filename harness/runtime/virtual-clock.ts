/**
 * The virtual clock: which release orders the timers' deadlines allow.
 *
 * A held timer fires only when the scheduler releases it, but not in any
 * order: a timer of 1 ms and one of 100 ms set up by the same code at the same
 * moment fire in that order on every machine. Imports, registration-batch gaps
 * and I/O take time nobody controls, so their releases may happen at any
 * moment after the previous release; a timer's release happens exactly its
 * delay after the release during which it was set up.
 *
 * Every release gets a time: a *free* release (import, batch gap) a variable
 * of its own, a timer the time of its anchor (the free release, or the root,
 * that started the chain of timers it belongs to) plus a known offset. An
 * order of releases is feasible when the variables can be chosen so that
 * times never decrease along it and every timer still held is not yet due —
 * a system of difference constraints, infeasible exactly when its constraint
 * graph has a positive cycle (Bellman–Ford). Equal times are allowed in
 * either order.
 */

/** A point in virtual time: `offset` ms after anchor `anchor` (0 is the root, at time 0). */
export interface VirtualTime {
  readonly anchor: number
  readonly offset: number
}

interface Edge {
  /** t(to) − t(from) ≥ weight */
  readonly from: number
  readonly to: number
  readonly weight: number
}

export class VirtualClock {
  private anchors = 1
  private readonly edges: Edge[] = []
  /** The time of the latest release. */
  private last: VirtualTime = { anchor: 0, offset: 0 }

  /** The time of the latest release: a timer set up now is due `delay` after it. */
  now(): VirtualTime {
    return this.last
  }

  /** A timer of `delay` ms set up now: when it is due. */
  dueIn(delay: number): VirtualTime {
    return { anchor: this.last.anchor, offset: this.last.offset + delay }
  }

  /** Records the release of an import, batch gap or anything else that takes uncontrolled time. */
  releaseFree(): void {
    const anchor = this.anchors++
    this.edges.push({ from: this.last.anchor, to: anchor, weight: this.last.offset })
    this.last = { anchor, offset: 0 }
  }

  /**
   * Whether releasing a timer due at `due` now is consistent with every
   * release so far and with the timers still held (`held`: their due times),
   * which must all fire no earlier.
   */
  canFire(due: VirtualTime, held: readonly VirtualTime[]): boolean {
    return this.feasible(this.firingEdges(due, held))
  }

  /** Records the release of a timer due at `due` (check {@link canFire} first). */
  fire(due: VirtualTime, held: readonly VirtualTime[]): void {
    this.edges.push(...this.firingEdges(due, held))
    this.last = due
  }

  /**
   * The position of each due time in the earliest assignment of times
   * consistent with everything so far: the order in which those timers would
   * fire if every uncontrolled delay were as short as the history allows.
   */
  earliest(times: readonly VirtualTime[]): number[] {
    const potential = this.longestFromRoot(this.edges)
    return times.map(time => (potential[time.anchor] ?? 0) + time.offset)
  }

  private firingEdges(due: VirtualTime, held: readonly VirtualTime[]): Edge[] {
    // t(due) ≥ t(last): t(due.anchor) − t(last.anchor) ≥ last.offset − due.offset
    const edges: Edge[] = [{ from: this.last.anchor, to: due.anchor, weight: this.last.offset - due.offset }]
    // Every held timer fires no earlier: t(h.anchor) + h.offset ≥ t(due.anchor) + due.offset
    for (const time of held) edges.push({ from: due.anchor, to: time.anchor, weight: due.offset - time.offset })
    return edges
  }

  /** No positive cycle in the constraint graph: a consistent assignment of times exists. */
  private feasible(extra: readonly Edge[]): boolean {
    const edges = [...this.edges, ...extra]
    const distance = new Float64Array(this.anchors) // a virtual source reaches every anchor with 0
    for (let round = 0; round < this.anchors; round++) {
      let changed = false
      for (const { from, to, weight } of edges) {
        const candidate = (distance[from] as number) + weight
        if (candidate > (distance[to] as number)) {
          distance[to] = candidate
          changed = true
        }
      }
      if (!changed) return true
    }
    return false
  }

  /** Longest distances from the root over the recorded constraints (the earliest consistent times). */
  private longestFromRoot(edges: readonly Edge[]): Float64Array {
    const distance = new Float64Array(this.anchors).fill(-Infinity)
    distance[0] = 0
    for (let round = 0; round < this.anchors; round++) {
      let changed = false
      for (const { from, to, weight } of edges) {
        const base = distance[from] as number
        if (base === -Infinity) continue
        if (base + weight > (distance[to] as number)) {
          distance[to] = base + weight
          changed = true
        }
      }
      if (!changed) break
    }
    return distance
  }
}
