import { Service } from '@deepseek-ai/cordis'
import type { Context } from '@deepseek-ai/cordis'
import { environmentOf } from '../runtime/environment.ts'
import { notifyContained } from '../runtime/notify.ts'
import type { SessionEvent } from './events.ts'
import { Session } from './session.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    sessions: SessionStore
  }
  interface Events {
    /** Live notification of every accepted session event (contained per listener). */
    'session/event'(session: Session, event: SessionEvent): void
  }
}

/** The `sessions` service: the in-memory registry of live sessions. */
export class SessionStore extends Service {
  private readonly live = new Map<string, Session>()

  constructor(ctx: Context) {
    super(ctx, 'sessions')
  }

  /**
   * Creates a session owned by the caller's fiber (disposing that fiber
   * removes it). The id defaults to a fresh environment id; a taken id throws.
   */
  create(id?: string): Session {
    const ctx = this.ctx
    const live = this.live
    const sessionId = id ?? environmentOf(ctx).newId()
    if (live.has(sessionId)) throw new Error(`session "${sessionId}" already exists`)
    const session = new Session(sessionId, {
      environment: () => environmentOf(ctx),
      publish: (subject, event) => notifyContained(ctx, 'session/event', subject, event),
    })
    ctx.effect(() => {
      live.set(sessionId, session)
      return () => {
        if (live.get(sessionId) === session) live.delete(sessionId)
      }
    }, `sessions.create(${JSON.stringify(sessionId)})`)
    return session
  }

  /** The live session with this id, if any. */
  get(id: string): Session | undefined {
    return this.live.get(id)
  }
}
