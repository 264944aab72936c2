/**
 * Typed access to the dsh services and live events on a cordis context.
 *
 * The program's cordis augmentations describe the reference's services, not
 * dsh's (see `packages.ts`), so lookups go through `ctx.get()` and are read
 * through the structural types below, and listeners are registered untyped.
 */
import type { Context } from '@deepseek-ai/cordis'

/** The `tools` service (dsh-tools `ToolRuntime`) as this target uses it. */
export interface ToolsService {
  /** Registers a tool definition in the calling context's layer; disposed with that context's fiber. */
  register(definition: object): () => void
  /** The definition visible globally under `name`, if any. */
  get(name: string): unknown
}

/** The `llm` service (dsh-llm `LlmRuntime`) as this target uses it. */
export interface LlmService {
  registerAdapter(providers: string[], adapter: object): () => void
  stream(request: object): AsyncIterable<object>
}

/** A live dsh agent as this target drives it. */
export interface DshAgent {
  /** The agent id, equal to its session id. */
  readonly id: string
  readonly session: { readonly events: readonly Record<string, unknown>[] }
  /** Queues a follow-up turn and wakes the driver. */
  followup(message: object): void
}

/** An owned agent and its disposer. */
export interface DshAgentHandle {
  readonly agent: DshAgent
  dispose(): Promise<void>
}

/** The `agents` service (dsh-agent `AgentRegistry`) as this target uses it. */
export interface AgentsService {
  create(options: { sessionId: string, agentOptions: { provider: string, model: string }, meta?: { cwd: string } }): Promise<DshAgentHandle>
}

interface DshServices {
  tools: ToolsService
  llm: LlmService
  agents: AgentsService
}

/** The dsh service `name` as seen from `ctx` (traced to that context), or undefined when it is not active. */
export function dshService<K extends keyof DshServices>(ctx: Context, name: K): DshServices[K] | undefined {
  // `ctx.reflect.get` is what the `ctx.get` mixin calls, without the Error cordis builds for a mixin read.
  const value: unknown = ctx.reflect.get(name)
  return value as DshServices[K] | undefined
}

/** Whether a service of this name is active on `ctx`. */
export function isServiceActive(ctx: Context, name: string): boolean {
  return ctx.reflect.get(name) !== undefined
}

/** Live dsh agent notifications this target records. */
export type DshLiveEvent = 'agent/status' | 'agent/error'

type UntypedOn = (this: Context, name: string, listener: (payload: unknown) => void) => () => boolean

/** Listens to a dsh live event on `ctx`; the payload is read by the caller. Returns the disposer. */
export function listen(ctx: Context, name: DshLiveEvent, listener: (payload: unknown) => void): () => boolean {
  // Cordis types `on` by the program's Events augmentation (the reference's payload types); dsh payloads are narrowed by the caller instead.
  const events = ctx.events
  return (events.on as unknown as UntypedOn).call(events as unknown as Context, name, listener)
}
