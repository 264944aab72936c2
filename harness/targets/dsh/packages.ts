/**
 * The dsh packages of the system under test, loaded at runtime, and the part
 * of their surface this target uses: the project's own (a dsh checkout's
 * workspace packages, or the versions a project installed), or loadrace's
 * pinned rc.8 copies when the system is loadrace's own.
 *
 * The packages are imported by a file URL TypeScript does not resolve, on
 * purpose: their declaration files augment cordis's `Context` and `Events`
 * with their own `llm`, `sessions`, `systemPrompt` and `tools` types, which
 * collide with the reference's augmentations of the same keys once both are
 * in one program. The structural types below describe only what this target
 * touches, and every export is checked when a set is loaded. Every package
 * must run on the system's cordis.
 */
import type { Plugin } from '@deepseek-ai/cordis'
import { pathToFileURL } from 'node:url'
import { CORE_PACKAGES, SystemError, type System } from '../../system/system.ts'
import { fileIn, resolvePackageFrom } from '../../system/resolve.ts'

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

/** Where the system has `specifier` (a package, or a subpath of one): the file it resolves to, checked to share the system's cordis. */
function locate(system: System, specifier: string): string {
  const [scope, name] = specifier.split('/')
  const packageName = `${scope}/${name}`
  const found = system.find(packageName)
  if (found === undefined) {
    throw new SystemError(`the dsh target needs ${packageName}, and the project at ${system.project} has none (install it, or sweep from the project that has it)`)
  }
  // A subpath resolves through the package's own `exports` (Node's self-reference from a file inside it).
  const file = specifier === packageName ? found.entry : resolvePackageFrom(specifier, fileIn(found.dir))
  if (file === undefined) throw new SystemError(`${specifier} does not resolve from ${found.dir}`)
  const cordis = resolvePackageFrom(CORE_PACKAGES.cordis, fileIn(found.dir))
  if (cordis !== undefined && cordis !== system.packages.cordis.entry) {
    throw new SystemError(`${packageName} at ${found.dir} resolves ${CORE_PACKAGES.cordis} to ${cordis}, not to the system's ${system.packages.cordis.entry}: two cordis copies cannot share one loader`)
  }
  return file
}

async function importNamespace(system: System, specifier: string): Promise<Namespace> {
  // A file URL keeps the packages' declaration files out of the program (see the module comment).
  const namespace: unknown = await import(pathToFileURL(locate(system, specifier)).href)
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

/** What this target imports, by what it uses each for. */
const SPECIFIERS = {
  llm: '@deepseek-ai/dsh-llm',
  session: '@deepseek-ai/dsh-session',
  systemPrompt: '@deepseek-ai/dsh-system-prompt',
  tools: '@deepseek-ai/dsh-tools',
  agent: '@deepseek-ai/dsh-agent',
  agentLoop: '@deepseek-ai/dsh-agent-loop',
  agentLoopInvariant: '@deepseek-ai/dsh-agent-loop/invariant',
  invariants: '@deepseek-ai/dsh-invariants',
} as const

/** The dsh packages this target loads. */
export const DSH_PACKAGE_NAMES: readonly string[] = [...new Set(Object.values(SPECIFIERS).map(specifier => specifier.split('/').slice(0, 2).join('/')))]

async function loadDshPackages(system: System): Promise<DshPackages> {
  const specifiers = SPECIFIERS
  const [llm, session, systemPrompt, tools, agent, agentLoop, agentLoopInvariant, invariants] = await Promise.all([
    importNamespace(system, specifiers.llm),
    importNamespace(system, specifiers.session),
    importNamespace(system, specifiers.systemPrompt),
    importNamespace(system, specifiers.tools),
    importNamespace(system, specifiers.agent),
    importNamespace(system, specifiers.agentLoop),
    importNamespace(system, specifiers.agentLoopInvariant),
    importNamespace(system, specifiers.invariants),
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

const loading = new WeakMap<System, Promise<DshPackages>>()
const loaded = new WeakMap<System, DshPackages>()

/** Loads the dsh packages of `system` (once per system). */
export async function loadPackages(system: System): Promise<DshPackages> {
  let packages = loading.get(system)
  if (!packages) {
    packages = loadDshPackages(system).then((value) => {
      loaded.set(system, value)
      return value
    })
    loading.set(system, packages)
  }
  return packages
}

/** The dsh packages of `system`, loaded before (see {@link loadPackages}). */
export function packagesOf(system: System): DshPackages {
  const packages = loaded.get(system)
  if (!packages) throw new Error('the dsh packages of this system were not loaded before mounting')
  return packages
}
