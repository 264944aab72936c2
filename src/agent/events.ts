import type { UserMessage } from '../llm/contract.ts'

/*
 * The parts of the agent events that do not carry the agent. The events
 * themselves, whose payloads carry the Agent, are declared beside it in
 * `agent.ts`, which imports this file.
 */

/** Whether an agent is working. There is no "busy": a queued message simply waits for the running turn. */
export type AgentStatus = 'idle' | 'running'

/** Enter the step with these messages, or reject it (the turn ends `blocked`). */
export type PreStepDecision =
  | { kind: 'enter', messages: readonly UserMessage[] }
  | { kind: 'reject' }
