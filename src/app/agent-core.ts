import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { AgentLoop } from '../agent/loop.ts'
import type { AgentLoopConfig } from '../agent/loop.ts'
import type { SystemPromptConfig } from '../system-prompt/config.ts'
import { SystemPrompt } from '../system-prompt/service.ts'
import { definedOnly } from './forward.ts'

/** agent-core's resolved config: the agent loop's keys plus SystemPrompt's. */
export type AgentCoreConfig = AgentLoopConfig & SystemPromptConfig

/** The input agent-core accepts: every key optional. */
export type AgentCoreInput = Partial<AgentLoopConfig> & SystemPromptConfig

/**
 * The intersection of the owners' schemas (RFC-era dsh-agent-core). An omitted
 * `toolOrder` stays absent because SystemPrompt's schema forces its default to
 * `undefined` and the loop's schema has no such key.
 */
const Config: Schema<AgentCoreInput, AgentCoreConfig> = Schema.intersect([AgentLoop.Config, SystemPrompt.Config])

/**
 * The agent-core bundle (REFERENCE-SPEC §6.3): mounts SystemPrompt (persona,
 * and `toolOrder` only when set) and the agent loop as children, WITHOUT
 * awaiting them — so a SystemPrompt shape error fails only that child: it is
 * logged, `systemPrompt` never appears, and its dependents stay pending, while
 * agent-core itself loads (§6.4).
 */
export const AgentCore = {
  name: 'agent-core',
  Config,
  apply(ctx: Context, config: AgentCoreConfig): void {
    ctx.plugin(SystemPrompt, {
      includeHarnessIdentity: config.includeHarnessIdentity,
      includeRuntimeContext: config.includeRuntimeContext,
      persona: config.persona ?? '',
      ...definedOnly({ toolOrder: config.toolOrder }),
    })
    ctx.plugin(AgentLoop, {
      agents: config.agents,
      maxSteps: config.maxSteps,
      provider: config.provider,
      model: config.model,
    })
  },
}
