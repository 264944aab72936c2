import type { LlmCallConfig, UserMessage } from '../llm/types.ts'
import type { Agent } from './agent.ts'

/** Whether an agent is working. There is no "busy": a queued message simply waits for the running turn. */
export type AgentStatus = 'idle' | 'running'

/** What the `agent/pre-step` waterfall proposes and decides. */
export interface PreStepProposal {
  agent: Agent
  turn: number
  step: number
  /** Claimed input plus an owed runtime-context snapshot. */
  messages: readonly UserMessage[]
  signal: AbortSignal
}

/** Enter the step with these messages, or reject it (the turn ends `blocked`). */
export type PreStepDecision =
  | { kind: 'enter', messages: readonly UserMessage[] }
  | { kind: 'reject' }

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
