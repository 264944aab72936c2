import type { ContentBlock, FinishReason, StreamChunk, TokenUsage } from '../llm/contract.ts'

/**
 * Folds one raw chunk stream into the step's outcome: the completed blocks
 * (each `block-end` carries its assembled block), the usage and the finish reason.
 */
export class ChunkAssembler {
  private readonly completed = new Map<number, ContentBlock>()
  usage: TokenUsage | undefined
  finish: FinishReason | undefined

  /** Takes one chunk into account (deltas are implied by the `block-end` that follows them). */
  push(chunk: StreamChunk): void {
    switch (chunk.type) {
      case 'block-end': this.completed.set(chunk.index, chunk.block); break
      case 'usage': this.usage = chunk.usage; break
      case 'finish': this.finish = chunk.reason; break
      default: break
    }
  }

  /** The completed blocks in index order. */
  blocks(): ContentBlock[] {
    return [...this.completed.entries()].sort(([a], [b]) => a - b).map(([, block]) => block)
  }
}
