import type { ToolSchema } from '../llm/contract.ts'

/** The agent loop's seam of an ordering variant: a reordering of the assembled tools before the header. */
export interface LoopOrdering {
  /** Applied by the agent loop to the assembled tools, with SystemPrompt's configured `toolOrder`, before it builds and logs the header. */
  readonly loopOrder?: (tools: readonly ToolSchema[], toolOrder: readonly string[] | undefined) => ToolSchema[]
}

/** The canonical loop (dsh): the header takes the tools as the assembly returned them. */
export const CANONICAL_LOOP_ORDERING: LoopOrdering = Object.freeze({})
