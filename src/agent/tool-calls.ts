import type { Context } from '@deepseek-ai/cordis'
import { errorChainText } from '../llm/errors.ts'
import { createToolResultMessage } from '../llm/messages.ts'
import type { ToolCallBlock } from '../llm/contract.ts'
import type { Session } from '../session/session.ts'
import type {} from '../tools/registry.ts'

/** Where one step's tool calls run and are logged. */
export interface ToolCallStep {
  /** The loop's context; the tool registry is read from it with `ctx.get('tools')`. */
  ctx: Context
  session: Session
  turn: number
  step: number
  signal: AbortSignal
  newId: () => string
}

interface ToolOutcome {
  text: string
  isError: boolean
}

/** Model arguments as a value: JSON when it parses, `{}` for empty input, else the raw text. */
function parseArguments(raw: string): unknown {
  if (raw === '') return {}
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

async function runTool(ctx: Context, call: ToolCallBlock, sessionId: string, signal: AbortSignal): Promise<ToolOutcome> {
  const definition = ctx.get('tools')?.get(call.name)
  if (definition === undefined) return { text: `Error: unknown tool "${call.name}"`, isError: true }
  if (definition.execute === undefined) return { text: `Error: tool "${call.name}" cannot be executed`, isError: true }
  try {
    const text = await definition.execute(parseArguments(call.arguments), { sessionId, toolCallId: call.id, signal })
    return { text: String(text), isError: false }
  } catch (error) {
    if (signal.aborted) throw error
    return { text: `Error: ${errorChainText(error)}`, isError: true }
  }
}

/**
 * Runs one assistant step's tool calls sequentially in model order, logging a
 * `tool/call` before and a `tool/result` (citing the call) after each. Tool
 * failures become error results; only cancellation aborts the step.
 */
export async function executeToolCalls(step: ToolCallStep, calls: readonly ToolCallBlock[]): Promise<void> {
  const { session, turn, signal } = step
  for (const call of calls) {
    signal.throwIfAborted()
    const callEvent = session.append('tool/call', {
      turn, step: step.step, callId: call.id, name: call.name, arguments: call.arguments,
    })
    const outcome = await runTool(step.ctx, call, session.id, signal)
    const message = createToolResultMessage(call, [{ type: 'text', text: outcome.text }], outcome.isError, step.newId())
    session.append('tool/result', { turn, step: step.step, message }, { sourceEventSeqs: [callEvent.seq] })
  }
}
