import type { Context, Events } from '@deepseek-ai/cordis'
import { failureOf, LlmError } from '../llm/errors.ts'
import { createAssistantMessage, createUserMessage } from '../llm/messages.ts'
import type { LlmService } from '../llm/service.ts'
import type { LlmCallConfig, ToolCallBlock, UserMessage } from '../llm/contract.ts'
import { environmentOf } from '../runtime/environment.ts'
import type { JsonValue } from '../runtime/freeze.ts'
import { notifyContained } from '../runtime/notify.ts'
import type { InboxTarget, TurnEndReason } from '../session/events.ts'
import type { Session } from '../session/session.ts'
import { renderContexts, renderPrompt } from '../system-prompt/render.ts'
import type { SystemPrompt } from '../system-prompt/service.ts'
import type { PromptAssembly } from '../system-prompt/prompt.ts'
import { ChunkAssembler } from './chunk-assembler.ts'
import type { AgentStatus, PreStepDecision } from './events.ts'
import { Inbox } from './inbox.ts'
import { RequestBuilder, type AgentRoute } from './request-builder.ts'
import { RuntimeContextProjection } from './runtime-context.ts'
import { executeToolCalls } from './tool-calls.ts'

/** What the `agent/pre-step` waterfall proposes and decides. */
export interface PreStepProposal {
  agent: Agent
  turn: number
  step: number
  /** Claimed input plus an owed runtime-context snapshot. */
  messages: readonly UserMessage[]
  signal: AbortSignal
}

/** What the `agent/request` waterfall is asked about: the call config of one step's request. */
export interface RequestProposal {
  agent: Agent
  turn: number
  step: number
  signal: AbortSignal
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** An agent was created (live). */
    'agent/created'(payload: { agent: Agent }): void
    /** An actual idle⇄running transition (live). */
    'agent/status'(payload: { agent: Agent, status: AgentStatus }): void
    /** A turn failed; `error` is the thrown value verbatim, `step` the last opened step (0 when none). Emitted before `turn/end`. */
    'agent/error'(payload: { agent: Agent, turn: number, step: number, error: unknown }): void
    /** A message was queued (live; the durable record is `agent/inbox/spliced`). */
    'agent/inbox/inserted'(payload: { agent: Agent, message: UserMessage }): void
    /** A queued message was claimed by a turn (live). */
    'agent/inbox/claimed'(payload: { agent: Agent, message: UserMessage, turn: number }): void
    /** A queued message was dropped unclaimed (live). */
    'agent/inbox/discarded'(payload: { agent: Agent, message: UserMessage }): void
    /** Waterfall before a step opens: may replace the messages or reject the step. */
    'agent/pre-step'(proposal: PreStepProposal, next: () => Promise<PreStepDecision>): Promise<PreStepDecision>
    /** Waterfall over the proposed call config of a request (not its messages). */
    'agent/request'(proposal: RequestProposal, next: () => Promise<LlmCallConfig>): Promise<LlmCallConfig>
  }
}

/** The loop services an agent runs on. */
export interface AgentRuntime {
  /** The agent loop's context: events, the environment and the tool registry are read through it. */
  ctx: Context
  llm: LlmService
  systemPrompt: SystemPrompt
  /** Steps one turn may open before it fails. */
  maxSteps: number
}

/** A step that was entered, with the assembly it was prepared from. */
type StepPlan = { kind: 'enter', messages: readonly UserMessage[], assembly: PromptAssembly } | { kind: 'reject' }

/** How a finished step leaves its turn. */
type StepOutcome = 'completed' | 'max-tokens' | 'tool-calls'

/** The default cancellation cause (any cause must be lossless JSON: it is logged in `turn/end`). */
const CANCELED: JsonValue = Object.freeze({ kind: 'cancel' })

/**
 * One agent: a session plus the driver that turns queued messages into turns
 * and steps (REFERENCE-SPEC §2–§3, §5). Every request is derived from the
 * session log. Turn failures are logged, reported on `agent/error` and
 * contained; the agent returns to idle and keeps serving later messages.
 */
export class Agent {
  private currentStatus: AgentStatus = 'idle'
  private driver: Promise<void> | undefined
  private abort: AbortController | undefined
  private lastTurn: number
  private openStep = 0
  private readonly inbox: Inbox
  private readonly requests: RequestBuilder
  private readonly runtimeContext: RuntimeContextProjection

  /**
   * @param options - the agent's route and its session's working directory
   *   (`cwd`, absent when none was given); read by the `{{provider}}`,
   *   `{{model}}` and `{{cwd}}` prompt variables the loop registers.
   */
  constructor(private readonly runtime: AgentRuntime, readonly session: Session, readonly options: AgentRoute & { readonly cwd?: string }) {
    this.inbox = new Inbox(session, {
      inserted: message => this.emit('agent/inbox/inserted', { agent: this, message }),
      claimed: (message, turn) => this.emit('agent/inbox/claimed', { agent: this, message, turn }),
      discarded: message => this.emit('agent/inbox/discarded', { agent: this, message }),
    })
    this.requests = new RequestBuilder(runtime.ctx, runtime.llm, session, options, (seed, turn, step, signal) =>
      runtime.ctx.waterfall('agent/request', { agent: this, turn, step, signal }, () => Promise.resolve(seed)))
    this.runtimeContext = new RuntimeContextProjection(session)
    this.lastTurn = 0
    for (const event of session.events) if (event.type === 'turn/start') this.lastTurn = event.data.turn
  }

  /** The agent id, equal to its session id. */
  get id(): string {
    return this.session.id
  }

  get status(): AgentStatus {
    return this.currentStatus
  }

  /**
   * Queues a user message (its id from the environment) for its own turn, and
   * starts driving when idle. On an idle agent this runs synchronously up to
   * the prompt assembly: the inbox splice, `running`, `turn/start` and the
   * claim exist when it returns.
   */
  followup(text: string): UserMessage {
    const message = createUserMessage(text, this.newId())
    this.inbox.insert('next-turn', message)
    if (this.currentStatus === 'idle') this.startDriver()
    return message
  }

  /** Resolves once the agent is idle with nothing queued. */
  async idle(): Promise<void> {
    while (this.driver) await this.driver
  }

  /** Drops queued input and aborts the running turn (which ends `aborted` with `cause`). */
  cancel(cause: JsonValue = CANCELED): void {
    this.inbox.clear()
    this.abort?.abort(cause)
  }

  private startDriver(): void {
    let finished!: () => void
    this.driver = new Promise<void>(resolve => { finished = resolve })
    this.setStatus('running')
    void this.drive().finally(finished)
  }

  private async drive(): Promise<void> {
    try {
      while (this.inbox.hasPending) {
        const abort = this.abort = new AbortController()
        const pending = this.inbox.pendingCount
        try {
          await this.turn(abort.signal)
        } catch {
          // Logged in `turn/end` and reported on `agent/error`; the driver boundary contains it.
          // Stop on cancellation, and when the failed turn consumed nothing (it would only fail again).
          if (abort.signal.aborted || this.inbox.pendingCount >= pending) break
        }
      }
    } finally {
      this.abort = undefined
      this.driver = undefined
      this.setStatus('idle')
    }
  }

  private setStatus(status: AgentStatus): void {
    if (status === this.currentStatus) return
    this.currentStatus = status
    this.emit('agent/status', { agent: this, status })
  }

  private emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {
    notifyContained(this.runtime.ctx, name, ...args)
  }

  private newId(): string {
    return environmentOf(this.runtime.ctx).newId()
  }

  /** One balanced turn: `turn/start` … `turn/end` (in a finally), `agent/error` before `turn/end` on failure. */
  private async turn(signal: AbortSignal): Promise<void> {
    const turn = this.lastTurn + 1
    this.session.append('turn/start', { turn })
    this.lastTurn = turn
    this.openStep = 0
    let reason: TurnEndReason = { kind: 'completed' }
    try {
      reason = await this.steps(turn, signal)
    } catch (error) {
      if (signal.aborted) {
        reason = { kind: 'aborted', reason: signal.reason as JsonValue }
      } else {
        reason = { kind: 'error', error: failureOf(error) }
        this.emit('agent/error', { agent: this, turn, step: this.openStep, error })
      }
      throw error
    } finally {
      this.session.append('turn/end', { turn, reason })
    }
  }

  private async steps(turn: number, signal: AbortSignal): Promise<TurnEndReason> {
    let target: InboxTarget = 'next-turn'
    while (true) {
      signal.throwIfAborted()
      const step = this.openStep + 1
      const plan = await this.prepareStep(target, turn, step, signal)
      if (plan.kind === 'reject') return { kind: 'blocked' }
      if (this.openStep === 0 && plan.messages.length === 0) return { kind: 'completed' }
      signal.throwIfAborted()
      this.session.append('step/start', { turn, step })
      this.openStep = step
      let outcome: StepOutcome
      try {
        for (const message of plan.messages) {
          this.session.append('user/message', message)
          this.runtimeContext.observe(message)
        }
        outcome = await this.runStep(turn, step, plan.assembly, signal)
      } finally {
        this.session.append('step/end', { turn, step })
      }
      signal.throwIfAborted()
      if (outcome !== 'tool-calls' && this.inbox.nextStep.length === 0) return { kind: outcome }
      if (step >= this.runtime.maxSteps) {
        throw new Error(`agent "${this.id}" reached maxSteps (${this.runtime.maxSteps}) in turn ${turn}`)
      }
      target = 'next-step'
    }
  }

  /** §3 steps 1–4: claim, assemble (rejections propagate), owed runtime context, `agent/pre-step`. */
  private async prepareStep(target: InboxTarget, turn: number, step: number, signal: AbortSignal): Promise<StepPlan> {
    const claimed = this.inbox.claim(target, turn)
    const assembly = await this.runtime.systemPrompt.assemble({ agent: this, scope: this, signal })
    signal.throwIfAborted()
    const snapshot = this.runtimeContext.owed(renderContexts(assembly).map(entry => entry.text), () => this.newId())
    const proposed = snapshot ? [...claimed, snapshot] : claimed
    const decision: PreStepDecision = await this.runtime.ctx.waterfall(
      'agent/pre-step',
      { agent: this, turn, step, messages: proposed, signal },
      () => Promise.resolve({ kind: 'enter', messages: proposed }),
    )
    signal.throwIfAborted()
    return decision.kind === 'reject' ? decision : { kind: 'enter', messages: decision.messages, assembly }
  }

  /** §3 steps 6–9: render, build and dispatch the request, log chunks and the message, run tool calls. */
  private async runStep(turn: number, step: number, assembly: PromptAssembly, signal: AbortSignal): Promise<StepOutcome> {
    const { request, prepared } = await this.requests.build({
      turn,
      step,
      tools: assembly.tools,
      system: renderPrompt(assembly),
      messages: this.session.deriveMessages(),
      signal,
    })
    const stream = prepared ? prepared.stream(request) : this.runtime.llm.stream(request)
    const assembler = new ChunkAssembler()
    const chunkSeqs: number[] = []
    for await (const chunk of stream) {
      signal.throwIfAborted()
      chunkSeqs.push(this.session.append('assistant/chunk', { turn, step, chunk }).seq)
      assembler.push(chunk)
    }
    signal.throwIfAborted()
    const finish = assembler.finish
    if (finish === undefined) throw new LlmError('the model stream ended without a finish chunk', 'INCOMPLETE_STREAM')
    if (finish.kind === 'error' || finish.kind === 'aborted') {
      const { message, code, ...facts } = finish.failure
      throw new LlmError(message, code, facts)
    }
    const message = createAssistantMessage(assembler.blocks(), request.provider, request.model, this.newId())
    this.session.append('assistant/message', {
      turn, step, message, ...assembler.usage === undefined ? {} : { usage: assembler.usage },
    }, { sourceEventSeqs: chunkSeqs })
    if (finish.kind === 'max-tokens') return 'max-tokens'
    const calls = message.content.filter((block): block is ToolCallBlock => block.type === 'tool-call')
    if (calls.length === 0) return 'completed'
    await executeToolCalls({ ctx: this.runtime.ctx, session: this.session, turn, step, signal, newId: () => this.newId() }, calls)
    return 'tool-calls'
  }
}
