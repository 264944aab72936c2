/**
 * The pending operations of one interleaving: every plugin import completion
 * and every gap between registration batches is held here until the scheduler
 * releases it. Nothing settles on its own.
 */

/** What a held operation settles with once released. */
export type Settlement<T> =
  | { kind: 'value', produce: () => T }
  /** The operation never settles (a faulty import that hangs). */
  | { kind: 'never' }

interface Held {
  release: () => void
}

export class OperationPool {
  private readonly held = new Map<string, Held>()
  private readonly releasedOps: string[] = []
  private readonly waiters: { labels: readonly string[], resolve: () => void }[] = []
  /** Bumped on every request and release; the drain loop watches it for progress. */
  version = 0

  /**
   * Registers `label` as pending and returns a promise that settles only after
   * `release(label)`. `produce` runs at release time; a throw rejects the promise.
   */
  hold<T>(label: string, settlement: Settlement<T>): Promise<T> {
    if (this.held.has(label) || this.releasedOps.includes(label)) {
      throw new Error(`operation "${label}" was requested twice in one interleaving`)
    }
    this.version++
    const promise = new Promise<T>((resolve, reject) => {
      this.held.set(label, {
        release: () => {
          if (settlement.kind === 'never') return
          try {
            resolve(settlement.produce())
          } catch (error) {
            reject(error)
          }
        },
      })
    })
    this.wake()
    return promise
  }

  /** Resolves once every label in `labels` has been requested (pending or already released). */
  whenRequested(labels: readonly string[]): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ labels, resolve })
      this.wake()
    })
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) {
      if (!waiter.labels.every(label => this.held.has(label) || this.releasedOps.includes(label))) continue
      this.waiters.splice(this.waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  }

  isPending(label: string): boolean {
    return this.held.has(label)
  }

  /** Labels currently waiting for the scheduler, in request order. */
  pending(): string[] {
    return [...this.held.keys()]
  }

  /** Labels released so far, in release order: the effective schedule. */
  released(): readonly string[] {
    return this.releasedOps
  }

  release(label: string): void {
    const held = this.held.get(label)
    if (!held) throw new Error(`operation "${label}" is not pending`)
    this.held.delete(label)
    this.releasedOps.push(label)
    this.version++
    held.release()
  }
}
