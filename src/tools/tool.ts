import type { ToolSchema } from '../llm/contract.ts'

/** Context passed to a tool's `execute`. */
export interface ToolCallContext {
  sessionId: string
  toolCallId: string
  signal: AbortSignal
}

/** A tool as a plugin registers it: the model-facing schema plus how to run it. */
export interface ToolDefinition extends ToolSchema {
  /** Runs one call; the text it returns becomes the tool result. Without it, calls report an error result. */
  execute?: (args: unknown, context: ToolCallContext) => string | Promise<string>
}

/** Options of one `tools.register()` call. */
export interface ToolRegistrationOptions {
  /** A per-contribution weight, read only by the `per-plugin-weight` variant. */
  weight?: number
}

/** One registration as the registry stores it (insertion-ordered). */
export interface ToolRecord {
  readonly definition: ToolDefinition
  /** Who registered it: the loader entry id when the registering fiber belongs to one, else the fiber's plugin name. */
  readonly owner: string
  /** Registration sequence number within this registry, from 0. */
  readonly seq: number
  readonly weight?: number
  /** Depth of the registering fiber in the service dependency graph (0 = injects nothing that a plugin provides). */
  readonly depth: number
}
