import { Service } from '@deepseek-ai/cordis'
import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type { LlmService } from '../llm/service.ts'
import { environmentOf } from '../runtime/environment.ts'
import { notifyContained } from '../runtime/notify.ts'
import type { SessionStore } from '../session/store.ts'
import type { SystemPrompt } from '../system-prompt/service.ts'
import { Agent } from './agent.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    agentLoop: AgentLoop
  }
}

/** Options of one agent. Omitted fields fall back to the loop config. */
export interface AgentOptions {
  /** Agent id == session id; a fresh environment id when omitted. */
  id?: string
  provider?: string
  model?: string
  maxTokens?: number
  /** The session's working directory, absolute; the `{{cwd}}` prompt variable. */
  cwd?: string
}

/** The AgentLoop plugin config. */
export interface AgentLoopConfig {
  /** Agents created when the loop starts. */
  agents: AgentOptions[]
  /** Steps one turn may open before it fails. */
  maxSteps: number
  /** Default provider route of created agents. */
  provider: string
  /** Default model of created agents. */
  model: string
}

const AgentOptionsSchema = Schema.object({
  id: Schema.string(),
  provider: Schema.string(),
  model: Schema.string(),
  maxTokens: Schema.natural(),
  cwd: Schema.string(),
})

const ConfigSchema = Schema.object({
  agents: Schema.array(AgentOptionsSchema).default([]),
  maxSteps: Schema.natural().min(1).default(8),
  provider: Schema.string().default('mock'),
  model: Schema.string().default('mock-model'),
})

/**
 * The agent loop (ctx key `agentLoop`): creates agents, each owning a session
 * created through the loop's fiber, and drives them (see {@link Agent}).
 * Disposing the loop cancels every agent and drops their sessions.
 */
export class AgentLoop extends Service {
  static inject = ['llm', 'sessions', 'systemPrompt']
  /** Schemastery object schema; the app chain intersects it with SystemPrompt's. */
  static Config: Schema<Partial<AgentLoopConfig>, AgentLoopConfig> = ConfigSchema as unknown as Schema<Partial<AgentLoopConfig>, AgentLoopConfig>

  readonly config: AgentLoopConfig
  private readonly home: Context
  private readonly llmService: LlmService
  private readonly sessionStore: SessionStore
  private readonly prompt: SystemPrompt
  private readonly agents = new Map<string, Agent>()

  constructor(ctx: Context, config: Partial<AgentLoopConfig> = {}) {
    super(ctx, 'agentLoop')
    this.home = ctx
    this.config = ConfigSchema(config) as AgentLoopConfig
    this.llmService = ctx.llm
    this.sessionStore = ctx.sessions
    this.prompt = ctx.systemPrompt
    const agents = this.agents
    ctx.effect(() => () => {
      for (const agent of agents.values()) agent.cancel({ kind: 'disposed' })
    }, 'agentLoop.cancelAgents()')
    for (const options of this.config.agents) this.create(options)
  }

  /** Creates an agent and its session (same id). Throws when the id is taken. */
  create(options: AgentOptions = {}): Agent {
    const id = options.id ?? environmentOf(this.home).newId()
    if (this.agents.has(id)) throw new Error(`agent "${id}" already exists`)
    const session = this.sessionStore.create(id)
    const agent = new Agent(
      { ctx: this.home, llm: this.llmService, systemPrompt: this.prompt, maxSteps: this.config.maxSteps },
      session,
      {
        provider: options.provider ?? this.config.provider,
        model: options.model ?? this.config.model,
        ...options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens },
        ...options.cwd === undefined ? {} : { cwd: options.cwd },
      },
    )
    this.agents.set(id, agent)
    notifyContained(this.home, 'agent/created', { agent })
    return agent
  }

  /** The agent with this id, if any. */
  get(id: string): Agent | undefined {
    return this.agents.get(id)
  }
}
