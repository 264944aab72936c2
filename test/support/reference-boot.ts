import { Context } from '@deepseek-ai/cordis'
import type { Agent } from '../../src/agent/agent.ts'
import { mountReference, type ReferenceHandles, type ReferenceOptions } from '../../src/composition.ts'
import { MockAdapter, type MockStep } from '../../src/llm/mock-adapter.ts'
import type { ToolSchema } from '../../src/llm/contract.ts'
import { createDeterministicEnvironment } from '../../src/runtime/environment.ts'
import type { SessionEvent } from '../../src/session/events.ts'
import type { ToolDefinition } from '../../src/tools/tool.ts'

/** A booted reference composition on a fresh root context. */
export interface Booted {
  root: Context
  adapter: MockAdapter
  handles: ReferenceHandles
}

/** Options of {@link boot}: the composition's, plus the adapter script. */
export interface BootOptions extends Omit<ReferenceOptions, 'adapter'> {
  script?: MockStep[]
  fallback?: MockStep
}

/** Mounts the reference (deterministic environment by default) and waits until every fiber is active. */
export async function boot(options: BootOptions = {}): Promise<Booted> {
  const root = new Context()
  const adapter = new MockAdapter({
    script: options.script ?? [],
    ...options.fallback === undefined ? {} : { fallback: options.fallback },
  })
  const handles = mountReference(root, {
    environment: createDeterministicEnvironment(),
    ...options,
    adapter,
  })
  await Promise.all(Object.values(handles.fibers))
  return { root, adapter, handles }
}

/** A minimal tool definition named `name`. */
export function tool(name: string, execute?: ToolDefinition['execute']): ToolDefinition {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object', properties: {} },
    ...execute ? { execute } : {},
  }
}

/** Registers each definition from its own tool plugin, one after the other (so registration order is the given order). */
export async function registerTools(root: Context, definitions: readonly ToolDefinition[]): Promise<void> {
  for (const definition of definitions) {
    await root.plugin({
      name: `tool-${definition.name}`,
      inject: ['tools'],
      apply(ctx: Context) {
        ctx.tools.register(definition)
      },
    })
  }
}

/** Queues `text` and waits until the agent is idle again. */
export async function turn(agent: Agent, text: string): Promise<void> {
  agent.followup(text)
  await agent.idle()
}

/** Tool names of a schema list (absent → undefined). */
export function names(tools: readonly ToolSchema[] | undefined): string[] | undefined {
  return tools?.map(schema => schema.name)
}

/** The event types of a log. */
export function types(events: readonly SessionEvent[]): string[] {
  return events.map(event => event.type)
}

/** Records live agent notifications of one root context. */
export function recordLive(root: Context): { statuses: string[], errors: { turn: number, step: number, error: unknown, logLength: number }[] } {
  const live = { statuses: [] as string[], errors: [] as { turn: number, step: number, error: unknown, logLength: number }[] }
  root.on('agent/status', ({ status }) => { live.statuses.push(status) })
  root.on('agent/error', ({ agent, turn, step, error }) => {
    live.errors.push({ turn, step, error, logLength: agent.session.events.length })
  })
  return live
}
