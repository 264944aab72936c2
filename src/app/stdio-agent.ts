import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { toolOrderSchema } from '../system-prompt/config.ts'
import { AgentCore } from './agent-core.ts'
import { definedOnly } from './forward.ts'

/** The stdio app's config (RFC-era dsh-stdio-agent). */
export interface StdioAgentConfig {
  model: string
  persona?: string
  toolOrder?: readonly string[] | null
  /** Accepted for config compatibility; loadrace keeps sessions in memory. */
  persistenceRoot: string
  /** Accepted for config compatibility; loadrace has no terminal to greet. */
  welcome: string
  /** Accepted for config compatibility; loadrace does not resume sessions. */
  resumeSessionId?: string
}

/** Every key optional (`model` defaults to `mock-model` so scenarios need not set it). */
export type StdioAgentInput = Partial<StdioAgentConfig>

const Config: Schema<StdioAgentInput, StdioAgentConfig> = Schema.object({
  model: Schema.string().default('mock-model'),
  persona: Schema.string(),
  toolOrder: toolOrderSchema(),
  persistenceRoot: Schema.string().default('./.sessions'),
  welcome: Schema.string().default('ready.'),
  resumeSessionId: Schema.string(),
}) as unknown as Schema<StdioAgentInput, StdioAgentConfig>

/** The stdio app: mounts agent-core with one `main` agent, forwarding persona and toolOrder only when set. */
export const StdioAgent = {
  name: 'stdio-agent',
  Config,
  apply(ctx: Context, config: StdioAgentConfig): void {
    ctx.plugin(AgentCore, {
      model: config.model,
      agents: [{ id: 'main' }],
      ...definedOnly({ persona: config.persona, toolOrder: config.toolOrder }),
    })
  },
}
