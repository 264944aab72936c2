/**
 * The published dsh packages, loaded at runtime, and the part of their
 * surface this target uses.
 *
 * The packages are imported by a specifier TypeScript does not resolve, on
 * purpose: their declaration files augment cordis's `Context` and `Events`
 * with their own `llm`, `sessions`, `systemPrompt` and `tools` types, which
 * collide with the reference's augmentations of the same keys once both are
 * in one program. The structural types below describe only what this target
 * touches, and every export is checked when the module loads.
 *
 * Importing this module loads the packages (top-level await). Only modules of
 * `harness/targets/dsh/` import it, so the reference never loads them.
 */
import type { Plugin } from '@deepseek-ai/cordis'

/** SystemPrompt config as this target passes it (`toolOrder` unvalidated: the service decides). */
export interface SystemPromptConfig {
  persona?: string
  toolOrder?: unknown
  includeHarnessIdentity?: boolean
  includeRuntimeContext?: boolean
}

/** AgentLoop config as this target passes it: no configured agents. */
export interface AgentLoopConfig {
  agents: []
}

/** The part of dsh-llm's `LlmAdapter` a subclass needs: its one abstract method. */
export interface AdapterBase {
  stream(request: object): AsyncIterable<object>
}

/** What this target uses of the published packages. */
export interface DshPackages {
  /** dsh-llm: the `llm` service. */
  LlmRuntime: Plugin
  /** dsh-llm: the abstract provider adapter. */
  LlmAdapter: abstract new () => AdapterBase
  /** dsh-llm: detaches and deep-freezes a message whose id already exists. */
  freezeMessage<T extends object>(message: T): T
  /** dsh-llm: the loop's identity marker for requests it built. */
  markAgentLoopRequest<T extends object>(request: T): T
  /** dsh-llm: in-place deep freeze (AbortSignals skipped). */
  deepFreeze<T>(value: T): T
  /** dsh-session: the `sessions` service. */
  SessionStore: Plugin
  /** dsh-session: the request-header fold of a log. */
  foldRequestHeader(events: readonly object[]): unknown
  /** dsh-system-prompt: the `systemPrompt` service. */
  SystemPrompt: Plugin<SystemPromptConfig>
  /** dsh-tools: the `tools` service. */
  ToolRuntime: Plugin
  /** dsh-agent: the `agents` registry service. */
  AgentRegistry: Plugin
  /** dsh-agent-loop: the `agentLoop` service (the agent factory). */
  AgentLoop: Plugin<AgentLoopConfig>
  /** dsh-invariants: the `invariants` service. */
  InvariantRegistry: Plugin
  /** dsh-agent-loop/invariant: the request-reconstruction invariant companion. */
  agentLoopInvariant: Plugin
}

type Namespace = Record<string, unknown>

async function importNamespace(specifier: string): Promise<Namespace> {
  // A non-literal specifier keeps the packages' declaration files out of the program (see the module comment).
  const namespace: unknown = await import(specifier)
  if (typeof namespace !== 'object' || namespace === null) throw new Error(`${specifier} did not load as a module`)
  return namespace as Namespace
}

/** One export that must be a function (classes included). */
function exported<T>(namespace: Namespace, specifier: string, name: string): T {
  const value = namespace[name]
  if (typeof value !== 'function') throw new Error(`${specifier} does not export a function "${name}"`)
  return value as T
}

/** The invariant companion module as a plugin object (its `name`, `inject` and `apply` exports). */
function companion(namespace: Namespace, specifier: string): Plugin {
  const inject = namespace.inject
  const name = namespace.name
  if (!Array.isArray(inject) || typeof name !== 'string') throw new Error(`${specifier} is not a cordis plugin module`)
  return { name, inject, apply: exported<Plugin.Function>(namespace, specifier, 'apply') }
}

async function loadDshPackages(): Promise<DshPackages> {
  const specifiers = {
    llm: '@deepseek-ai/dsh-llm',
    session: '@deepseek-ai/dsh-session',
    systemPrompt: '@deepseek-ai/dsh-system-prompt',
    tools: '@deepseek-ai/dsh-tools',
    agent: '@deepseek-ai/dsh-agent',
    agentLoop: '@deepseek-ai/dsh-agent-loop',
    agentLoopInvariant: '@deepseek-ai/dsh-agent-loop/invariant',
    invariants: '@deepseek-ai/dsh-invariants',
  } as const
  const [llm, session, systemPrompt, tools, agent, agentLoop, agentLoopInvariant, invariants] = await Promise.all([
    importNamespace(specifiers.llm),
    importNamespace(specifiers.session),
    importNamespace(specifiers.systemPrompt),
    importNamespace(specifiers.tools),
    importNamespace(specifiers.agent),
    importNamespace(specifiers.agentLoop),
    importNamespace(specifiers.agentLoopInvariant),
    importNamespace(specifiers.invariants),
  ])
  return {
    LlmRuntime: exported(llm, specifiers.llm, 'LlmRuntime'),
    LlmAdapter: exported(llm, specifiers.llm, 'LlmAdapter'),
    freezeMessage: exported(llm, specifiers.llm, 'freezeMessage'),
    markAgentLoopRequest: exported(llm, specifiers.llm, 'markAgentLoopRequest'),
    deepFreeze: exported(llm, specifiers.llm, 'deepFreeze'),
    SessionStore: exported(session, specifiers.session, 'SessionStore'),
    foldRequestHeader: exported(session, specifiers.session, 'foldRequestHeader'),
    SystemPrompt: exported(systemPrompt, specifiers.systemPrompt, 'SystemPrompt'),
    ToolRuntime: exported(tools, specifiers.tools, 'ToolRuntime'),
    AgentRegistry: exported(agent, specifiers.agent, 'AgentRegistry'),
    AgentLoop: exported(agentLoop, specifiers.agentLoop, 'AgentLoop'),
    InvariantRegistry: exported(invariants, specifiers.invariants, 'InvariantRegistry'),
    agentLoopInvariant: companion(agentLoopInvariant, specifiers.agentLoopInvariant),
  }
}

/** The loaded packages (resolved once, when this module is first imported). */
export const dsh: DshPackages = await loadDshPackages()
