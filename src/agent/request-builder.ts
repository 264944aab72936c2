import type { Context } from '@deepseek-ai/cordis'
import { callConfigOf } from '../llm/call-config.ts'
import { LlmError } from '../llm/errors.ts'
import type { LlmService, PreparedCall } from '../llm/service.ts'
import type { GenerateOptions, LlmCallConfig, Message, ToolSchema } from '../llm/contract.ts'
import { deepFreeze } from '../runtime/freeze.ts'
import { variantSeam } from '../runtime/variant-service.ts'
import type { RequestContextData } from '../session/events.ts'
import { canonicalHeader, headerEquals, type EpochHeader } from '../session/header.ts'
import type { Session } from '../session/session.ts'
import { CANONICAL_LOOP_ORDERING } from './loop-order.ts'
import { markAgentLoopRequest } from './request-marker.ts'

/** The route an agent was created with. */
export interface AgentRoute {
  provider: string
  model: string
  maxTokens?: number
}

/**
 * The `agent/request` waterfall over one step's seed config. The agent runs
 * it (its payload carries the agent), so the builder needs no agent.
 */
export type RequestWaterfall = (seed: LlmCallConfig, turn: number, step: number, signal: AbortSignal) => Promise<LlmCallConfig>

/** One step's request, ready to dispatch (through `prepared` when an adapter was bound). */
export interface BuiltRequest {
  request: GenerateOptions
  prepared?: PreparedCall
}

/** What one request is built from. */
export interface RequestInputs {
  turn: number
  step: number
  /** The assembly's tool list as the waterfall returned it. */
  tools: readonly ToolSchema[]
  system: string
  messages: readonly Message[]
  signal: AbortSignal
}

/** The next request's config proposal from the folded header: its config minus adapter-materialised defaults. */
function proposalFrom(header: EpochHeader): LlmCallConfig {
  const config = { ...header.config }
  if (header.adapterDefaults?.reasoningEffort === true) delete config.reasoningEffort
  if (header.adapterDefaults?.maxTokens === true) delete config.maxTokens
  return config
}

function latestRequestContext(session: Session): RequestContextData | undefined {
  for (let index = session.events.length - 1; index >= 0; index--) {
    const event = session.events[index]!
    if (event.type === 'request/context') return event.data
  }
  return undefined
}

function sameRoute(a: RequestContextData | undefined, b: RequestContextData): boolean {
  return a !== undefined && a.provider === b.provider && a.model === b.model && a.contextWindow === b.contextWindow
}

/**
 * Builds an agent's requests (REFERENCE-SPEC §3 step 7) and owns its
 * "header already logged" flag: the first request of this loop instance
 * anchors a full `request/header` (`initial`, or `resume` over a prior
 * header); later ones log a `change` snapshot only when the canonical header
 * differs from the fold. The request itself is built from the logged header,
 * deep-frozen (the signal excepted) and marked.
 */
export class RequestBuilder {
  private headerLogged = false

  constructor(
    private readonly ctx: Context,
    private readonly llm: LlmService,
    private readonly session: Session,
    private readonly route: AgentRoute,
    private readonly proposeConfig: RequestWaterfall,
  ) {}

  async build(inputs: RequestInputs): Promise<BuiltRequest> {
    const { session } = this
    const { turn, step, signal } = inputs
    const seed = deepFreeze(this.seedConfig(session.requestHeader()))
    const proposed = await this.proposeConfig(seed, turn, step, signal)
    signal.throwIfAborted()
    if (!proposed.provider || !proposed.model) {
      // The agent id is its session id.
      throw new Error(`agent "${session.id}" has no provider/model: set them on the agent or return both from the agent/request waterfall`)
    }

    let prepared: PreparedCall | undefined
    let config: LlmCallConfig
    try {
      prepared = await this.llm.prepareCall(proposed)
      config = prepared.config
    } catch (error) {
      // No adapter serves the route: the config is used as proposed (middleware may serve it).
      if (!(error instanceof LlmError) || error.code !== 'NO_ADAPTER') throw error
      config = callConfigOf(proposed)
    }
    signal.throwIfAborted()

    const loopOrder = variantSeam(this.ctx, CANONICAL_LOOP_ORDERING).loopOrder
    const tools = loopOrder ? loopOrder(inputs.tools, this.ctx.systemPrompt.toolOrder) : [...inputs.tools]
    const header = canonicalHeader({
      config,
      ...prepared ? { adapterDefaults: prepared.adapterDefaults } : {},
      system: inputs.system,
      tools,
    })
    this.logHeader(session, header)
    const context: RequestContextData = {
      provider: config.provider,
      model: config.model,
      ...prepared?.contextWindow === undefined ? {} : { contextWindow: prepared.contextWindow },
    }
    if (!sameRoute(latestRequestContext(session), context)) session.append('request/context', context)
    signal.throwIfAborted()

    const logged = session.requestHeader()!
    const request: GenerateOptions = {
      ...logged.config,
      messages: inputs.messages,
      ...logged.system === undefined ? {} : { system: logged.system },
      ...logged.tools === undefined ? {} : { tools: logged.tools },
      sessionId: session.id,
      signal,
    }
    return { request: markAgentLoopRequest(deepFreeze(request)), ...prepared ? { prepared } : {} }
  }

  /** First request: the agent's route (+ an effort kept from a same-route header, + maxTokens); later: the fold's proposal. */
  private seedConfig(folded: EpochHeader | undefined): LlmCallConfig {
    if (this.headerLogged && folded) return callConfigOf(proposalFrom(folded))
    const { provider, model, maxTokens } = this.route
    const kept = folded?.config.provider === provider && folded.config.model === model && folded.adapterDefaults?.reasoningEffort !== true
      ? folded.config.reasoningEffort
      : undefined
    return callConfigOf({
      provider,
      model,
      ...kept === undefined ? {} : { reasoningEffort: kept },
      ...maxTokens === undefined ? {} : { maxTokens },
    })
  }

  private logHeader(session: Session, header: EpochHeader): void {
    const baseline = session.requestHeader()
    if (!this.headerLogged) {
      session.append('request/header', { header, reason: baseline === undefined ? 'initial' : 'resume' })
      this.headerLogged = true
    } else if (baseline === undefined || !headerEquals(baseline, header)) {
      session.append('request/header', { header, reason: 'change' })
    }
  }
}
