import type { UserMessage } from '../llm/contract.ts'
import type { InboxSplice, InboxTarget } from '../session/events.ts'
import type { Session } from '../session/session.ts'

/** Live notifications of inbox changes. */
export interface InboxNotifications {
  inserted(message: UserMessage): void
  claimed(message: UserMessage, turn: number): void
  discarded(message: UserMessage): void
}

/**
 * An agent's pending input: two queues whose every mutation is first logged
 * as a durable `agent/inbox/spliced` event. Queued messages are the frozen
 * copies stored in the log.
 */
export class Inbox {
  private readonly lists: Record<InboxTarget, UserMessage[]> = { 'next-turn': [], 'next-step': [] }

  constructor(private readonly session: Session, private readonly notifications: InboxNotifications) {}

  /** Whether any input waits. */
  get hasPending(): boolean {
    return this.lists['next-turn'].length > 0 || this.lists['next-step'].length > 0
  }

  /** How many messages wait in both queues. */
  get pendingCount(): number {
    return this.lists['next-turn'].length + this.lists['next-step'].length
  }

  /** Messages waiting for the next step boundary. */
  get nextStep(): readonly UserMessage[] {
    return this.lists['next-step']
  }

  /** Queues `message` at the end of `target`. */
  insert(target: InboxTarget, message: UserMessage): void {
    const inserted = this.splice(target, this.lists[target].length, 0, [message])
    for (const entry of inserted) this.notifications.inserted(entry)
  }

  /** Removes and returns one step's input: every next-step message, plus the oldest next-turn message when opening a turn. */
  claim(target: InboxTarget, turn: number): UserMessage[] {
    const claimed = this.remove('next-step', this.lists['next-step'].length)
    if (target === 'next-turn') claimed.push(...this.remove('next-turn', 1))
    for (const message of claimed) this.notifications.claimed(message, turn)
    return claimed
  }

  /** Drops every pending message (logged with outcome `canceled`). */
  clear(): void {
    for (const target of ['next-step', 'next-turn'] as const) {
      const list = this.lists[target]
      if (list.length === 0) continue
      const removed = list.slice()
      this.splice(target, 0, list.length, [], 'canceled')
      for (const message of removed) this.notifications.discarded(message)
    }
  }

  private remove(target: InboxTarget, count: number): UserMessage[] {
    const removed = this.lists[target].slice(0, count)
    if (removed.length > 0) this.splice(target, 0, removed.length, [])
    return removed
  }

  /** Logs the splice, then applies it; returns the logged (frozen) inserted messages. */
  private splice(target: InboxTarget, start: number, removedCount: number, inserted: UserMessage[], outcome?: 'canceled'): readonly UserMessage[] {
    const record: InboxSplice = {
      target,
      start,
      ...removedCount > 0 ? { removedCount } : {},
      inserted,
      ...outcome === undefined ? {} : { outcome },
    }
    const event = this.session.append('agent/inbox/spliced', record)
    this.lists[target].splice(start, removedCount, ...event.data.inserted)
    return event.data.inserted
  }
}
