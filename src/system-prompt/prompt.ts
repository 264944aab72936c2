import type { ToolSchema } from '../llm/contract.ts'

/** What `assemble()` is called with. `scope` selects scoped registrations; it is usually the agent. */
export interface AssembleContext {
  /** Scope carrier (for example an agent). Scoped sections, contexts, variables and tool providers registered for it contribute. */
  scope?: object
  signal?: AbortSignal
  /** Free-form caller data, passed through to providers and listeners untouched. */
  [key: string]: unknown
}

/** One named prompt section; sorted by `order` (stable). At most one may be `complete`. */
export interface PromptSection {
  name: string
  order: number
  text: string
  complete?: boolean
}

/** A runtime-context entry: same shape as a section, rendered apart from the system prompt. */
export interface PromptContext {
  name: string
  order: number
  text: string
}

/** The result of one prompt assembly; its `tools` are the model-facing tool list. */
export interface PromptAssembly {
  sections: PromptSection[]
  contexts: PromptContext[]
  variables: Record<string, string | undefined>
  tools: ToolSchema[]
}

/** What a tool provider returns for one assembly. */
export interface ToolProviderResult {
  schemas: readonly ToolSchema[]
  /** The name universe before any restriction; defaults to the names of `schemas`. */
  knownNames?: readonly string[]
}

export type ToolProvider = (context: AssembleContext) => ToolProviderResult
