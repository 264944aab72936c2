/**
 * Turns a checked scenario file into a `Scenario`: schema defaults applied,
 * tools lists as single batches, tool specs completed, modules attached.
 */
import { parseHost } from '../hosts/host.ts'
import { resolve } from 'node:path'
import { ScenarioFileSchema, type ScenarioFile } from './schema.ts'
import type { LoadedModule } from './modules.ts'
import type { ConfigurationFile } from './entries-file.ts'
import type { BaseConfig, EntriesSource, ExpectedTool, PluginSpec, Scenario, ScenarioAppConfig, ToolSpec } from './scenario.ts'
import type { System } from '../system/system.ts'

/** `values` without its undefined keys (an explicit `null` stays, for the service to reject). */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}

type FileEntry = ScenarioFile['plugins'][number]
type FileTool = NonNullable<FileEntry['tools']>[number]

/** Where the file came from and what was imported for it. */
export interface ScenarioSource {
  /** The path as the user gave it. */
  file: string
  /** Absolute directory of the file. */
  dir: string
  /** The file name without its extension: the name when the file gives none. */
  defaultName: string
  /** Imported plugin modules by entry index. */
  modules: ReadonlyMap<number, LoadedModule>
  /** The `expect.header` tools, read from its file when it names one; undefined when the file pins none. */
  header?: ExpectedTool[]
  /** The cordis.yml named by `entries:`, read and its modules imported. */
  tree?: ConfigurationFile
  /** The system under test as the project has it. */
  system: System
}

/** The parameters of a tool that declares none: an object schema without properties. */
function emptyParameters(): Record<string, unknown> {
  return { type: 'object', properties: {} }
}

function toolSpec(tool: FileTool): ToolSpec {
  if (typeof tool === 'string') return { name: tool, description: `${tool} tool`, parameters: emptyParameters() }
  return {
    name: tool.name,
    description: tool.description ?? `${tool.name} tool`,
    parameters: tool.parameters ?? emptyParameters(),
  }
}

function pluginSpec(entry: FileEntry, index: number, modules: ReadonlyMap<number, LoadedModule>): PluginSpec {
  const common = { id: entry.id, inject: entry.inject ?? [], ...entry.weight === undefined ? {} : { weight: entry.weight } }
  const batches = entry.batches ?? (entry.tools === undefined ? undefined : [entry.tools])
  if (batches !== undefined) {
    return {
      kind: 'tools',
      ...common,
      batches: batches.map((batch) => batch.map(toolSpec)),
      ...entry.when === undefined ? {} : { when: { after: entry.when.after ?? [], before: entry.when.before ?? [] } },
      ...entry.fault === undefined ? {} : { fault: entry.fault },
    }
  }
  if (entry.module !== undefined) {
    const loaded = modules.get(index)
    if (!loaded) throw new Error(`plugin module of entry ${index} was not loaded`)
    return {
      kind: 'module',
      ...common,
      module: entry.module,
      path: loaded.path,
      ...entry.config === undefined ? {} : { config: entry.config },
      outcome: loaded.outcome,
    }
  }
  if (entry.listener !== undefined) {
    const { append = [], prepend = [], reverse = false, remove = [] } = entry.listener
    return { kind: 'listener', ...common, listener: { prepend, append, reverse, remove } }
  }
  if (entry.fault === undefined) throw new Error(`plugin entry ${index} has no kind`)
  return { kind: 'fault', ...common, fault: entry.fault }
}

/** The importing entries of a cordis.yml as module plugin specs: one scheduled import each. */
function treePlugins(tree: ConfigurationFile): PluginSpec[] {
  return tree.entries.flatMap((entry): PluginSpec[] => entry.module === undefined ? [] : [{
    kind: 'module',
    id: entry.label,
    inject: [],
    module: entry.name,
    path: entry.module.path,
    outcome: entry.module.outcome,
    ...entry.include ? { include: true as const } : {},
  }])
}

function entriesSource(tree: ConfigurationFile): EntriesSource {
  return {
    file: tree.file,
    labels: tree.entries.map(entry => entry.label),
    initial: tree.entries.filter(entry => entry.topLevel && entry.module !== undefined).map(entry => entry.label),
  }
}

/** `base:` with `agent.cwd` made absolute against the scenario folder; absent parts stay absent. */
function baseConfig(base: ScenarioFile['base'], dir: string): BaseConfig {
  const out: BaseConfig = {}
  const systemPrompt = definedOnly(base.systemPrompt ?? {})
  if (Object.keys(systemPrompt).length > 0) out.systemPrompt = systemPrompt
  if (base.tools !== undefined) out.tools = base.tools
  const { cwd, ...agent } = definedOnly(base.agent ?? {})
  if (cwd !== undefined) agent.cwd = resolve(dir, cwd)
  if (Object.keys(agent).length > 0) out.agent = agent
  return out
}

/**
 * Normalises a file that passed every check. Runs the file schema over a copy
 * (the schema fills the defaults) and builds the typed scenario from it.
 */
export function normaliseScenario(value: Record<string, unknown>, source: ScenarioSource): Scenario {
  const file = ScenarioFileSchema(structuredClone(value))
  const config: ScenarioAppConfig = {
    ...file.config.persona === undefined ? {} : { persona: file.config.persona },
    ...file.config.toolOrder === undefined ? {} : { toolOrder: file.config.toolOrder },
  }
  return {
    name: file.name ?? source.defaultName,
    file: source.file,
    dir: source.dir,
    system: source.system,
    description: file.description ?? '',
    app: file.app,
    config,
    base: baseConfig(file.base, source.dir),
    variant: file.variant,
    target: file.target,
    turns: file.turns,
    invariant: file.invariant,
    loader: source.tree ? 'include' : file.loader,
    services: file.services,
    ...file.timeout === undefined ? {} : { timeout: file.timeout },
    ...file.budget === undefined ? {} : { budget: file.budget },
    ...file.host === undefined ? {} : { host: parseHost(file.host).name },
    ...file.process === 'fresh' ? { process: 'fresh' as const } : {},
    env: { ...file.env },
    ...file.snapshot === undefined ? {} : { snapshot: resolve(source.dir, file.snapshot) },
    ...file.pinned === undefined ? {} : { pinned: { role: file.pinned.role, toolSchemas: resolve(source.dir, file.pinned.toolSchemas), systemPrompt: resolve(source.dir, file.pinned.systemPrompt) } },
    ...file.requires === undefined ? {} : { requires: { commands: [...file.requires.commands ?? []], platforms: [...file.requires.platforms ?? []] } },
    ...file.model === undefined ? {} : { model: { replaces: file.model.replaces, providers: [...file.model.providers], models: [...file.model.models] } },
    plugins: source.tree ? treePlugins(source.tree) : (file.plugins ?? []).map((entry, index) => pluginSpec(entry, index, source.modules)),
    ...source.tree ? { entries: entriesSource(source.tree) } : {},
    expect: {
      outcome: file.expect.outcome,
      ...file.expect.tools === undefined ? {} : { tools: file.expect.tools },
      ...source.header === undefined ? {} : { header: source.header },
      inactive: file.expect.inactive ?? [],
      ...file.expect.error === undefined ? {} : { error: file.expect.error },
      // A snapshot that pins one of several outputs is a race the sweep must find.
      deterministic: file.expect.deterministic ?? file.expect.snapshot !== 'pins-one',
      ...file.snapshot === undefined ? {} : { snapshot: file.expect.snapshot ?? 'holds' },
    },
  }
}
