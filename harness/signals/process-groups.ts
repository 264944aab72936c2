import type { ChildProcess } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The process groups of the commands loadrace runs (each started
 * `detached`, so it leads a group of its own with every process it starts).
 * Ending them ends everything those commands started: SIGTERM to each
 * group, then, once the group's processes have had a grace period to end,
 * SIGKILL to whatever of it is left — a process that ignores SIGTERM
 * included, even after the command that started it has gone.
 */

/** How long a group gets to end after SIGTERM before SIGKILL. */
export const GROUP_GRACE_MS = 3000

/** Sends `signal` to every process of group `group`; false when none is left. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal)
    return true
  } catch {
    return false
  }
}

export class ProcessGroups {
  private readonly running = new Set<ChildProcess>()
  /** Groups sent SIGTERM, and when. */
  private readonly ending = new Map<number, number>()

  /** Tracks a command's child from its start to its end. */
  track(child: ChildProcess, state: 'started' | 'ended'): void {
    if (state === 'started') this.running.add(child)
    else this.running.delete(child)
  }

  /** How many commands are running now. */
  get size(): number {
    return this.running.size
  }

  /** Sends SIGTERM to every running command's group (see {@link finish} for the SIGKILL that follows). */
  endAll(): void {
    for (const group of [...this.running].flatMap(child => child.pid === undefined ? [] : [child.pid])) {
      if (this.ending.has(group)) continue
      this.ending.set(group, Date.now())
      signalGroup(group, 'SIGTERM')
    }
  }

  /**
   * Resolves once every group sent SIGTERM is gone: waits up to `graceMs`
   * from its SIGTERM for it to end by itself, then sends SIGKILL to what is
   * left of it.
   */
  async finish(graceMs: number = GROUP_GRACE_MS): Promise<void> {
    for (const [group, since] of this.ending) {
      while (signalGroup(group, 0) && Date.now() - since < graceMs) await sleep(25)
      signalGroup(group, 'SIGKILL')
      this.ending.delete(group)
    }
  }
}
