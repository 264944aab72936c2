import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { toolOrderSchema } from '../system-prompt/config.ts'
import { AgentCore } from './agent-core.ts'
import { definedOnly } from './forward.ts'

/** The ACP app's config (RFC-era dsh-acp-agent). */
export interface AcpAgentConfig {
  provider: string
  model: string
  persona?: string
  toolOrder?: readonly string[] | null
  /** Accepted for config compatibility; loadrace keeps sessions in memory. */
  persistenceRoot: string
}

/** Every key optional (`provider`/`model` default to the mock route so scenarios need not set them). */
export type AcpAgentInput = Partial<AcpAgentConfig>

const Config: Schema<AcpAgentInput, AcpAgentConfig> = Schema.object({
  provider: Schema.string().default('mock'),
  model: Schema.string().default('mock-model'),
  persona: Schema.string(),
  toolOrder: toolOrderSchema(),
  persistenceRoot: Schema.string().default('./.sessions'),
}) as unknown as Schema<AcpAgentInput, AcpAgentConfig>

/**
 * The ACP app: mounts agent-core with the route as the loop's defaults and no
 * initial agent (ACP sessions create them), forwarding persona and toolOrder
 * only when set.
 */
export const AcpAgent = {
  name: 'acp-agent',
  Config,
  apply(ctx: Context, config: AcpAgentConfig): void {
    ctx.plugin(AgentCore, {
      provider: config.provider,
      model: config.model,
      agents: [],
      ...definedOnly({ persona: config.persona, toolOrder: config.toolOrder }),
    })
  },
}
