import type { AssistantMessage, ContentBlock, TextBlock, UserMessage } from './contract.ts'

/** Builds a user message (`content, source, role, id` in that key order). */
export function createUserMessage(text: string, id: string): UserMessage {
  return { content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id }
}

/**
 * Builds the assistant message of one model step, in dsh's key order
 * (`role, content, source, id`: dsh-llm's `createAssistantMessage`); the
 * message is part of every later request's bytes.
 */
export function createAssistantMessage(content: readonly ContentBlock[], provider: string, model: string, id: string): AssistantMessage {
  return { role: 'assistant', content, source: { kind: 'model', provider, model }, id }
}

/** Builds the user-role message carrying one tool result back to the model. */
export function createToolResultMessage(
  call: { id: string, name: string },
  content: readonly TextBlock[],
  isError: boolean,
  id: string,
): UserMessage {
  return {
    content: [{ type: 'tool-result', toolCallId: call.id, content: [...content], ...isError ? { isError: true } : {} }],
    source: { kind: 'tool', toolCallId: call.id, name: call.name },
    role: 'user',
    id,
  }
}
