/**
 * The structure of a scenario file as schemastery schemas (dsh's own schema
 * library). Every node carries a hint for error lines; defaults live here too,
 * so running the root schema over a checked file fills them in.
 */
import { HOST_FORMS } from '../hosts/host.ts'
import Schema from '@deepseek-ai/schemastery'
import { VARIANT_NAMES } from '../targets/catalogue.ts'
import { DEFAULT_TARGET, isTargetName, targetNames } from '../targets/registry.ts'
import { APP_NAMES, FAULT_KINDS, LOADER_MODES, PROCESS_MODES, SERVICE_MODES, SNAPSHOT_STATUSES, TIMEOUT_RANGE, TURN_RANGE } from './scenario.ts'
import { OUTCOMES } from '../verdict/outcome.ts'
import { hinted } from './hints.ts'
import { COMMAND_NAME, PLATFORMS } from '../hosts/requirements.ts'
import { PIN_ROLES } from '../targets/definition.ts'

/** Scenario names (and default names taken from file names). */
export const SCENARIO_NAME = /^[a-z0-9-]+$/
/** Plugin entry ids. */
export const PLUGIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** What `plugins:` holds, for error lines. */
export const PLUGINS_ALLOWED = 'entries with an id and one of tools, batches, module, listener, or a fault'

/** The tool-kind keys of a plugin entry: exactly one per entry (a fault entry may have none). */
export const PLUGIN_KINDS = ['tools', 'batches', 'module', 'listener'] as const

const TOOL_SHAPES = 'a list of tool names or {name, description, parameters}'

/** One of a fixed set of names. */
function oneOf<const T extends string>(names: readonly T[]) {
  return Schema.union(names.map((name) => Schema.const(name)))
}

/** The hint of a `oneOf` node: a string outside the set reads `unknown <noun> "x"`. */
function oneOfHint(noun: string, names: readonly string[]) {
  return { noun, names, expected: `a known ${noun}`, allowed: `one of ${names.join(', ')}` }
}

/** A registered target's name: the set is read when a file is checked, so a target registered later is known. */
const targetName = hinted(Schema.transform(Schema.string(), (name) => {
  if (!isTargetName(name)) throw new Schema.ValidationError(`unknown target ${JSON.stringify(name)}`, { path: [] })
  return name
}, true).default(DEFAULT_TARGET), {
  noun: 'target',
  expected: 'a known target',
  get names() { return targetNames() },
  get allowed() { return `one of ${targetNames().join(', ')}` },
})

/**
 * Makes a freshly built list or mapping schema leave an omitted value absent.
 * schemastery defaults every array to `[]` and every object to `{}`; for
 * `toolOrder` an omitted key must not turn into an explicitly configured empty
 * list (the RFC's schemastery footnote), and a plugin entry's kind is told by
 * which keys it has.
 */
function absentWhenOmitted<S, T>(schema: Schema<S, T>): Schema<S, T> {
  schema.meta = { ...schema.meta, default: undefined }
  return schema
}

function stringList(expected: string, allowed: string, item: { expected: string, allowed: string }, nonEmptyItems = false) {
  const itemSchema = hinted(nonEmptyItems ? Schema.string().min(1) : Schema.string(), item)
  return hinted(Schema.array(itemSchema), { expected, allowed })
}

const toolName = hinted(Schema.string().min(1), { expected: 'a non-empty tool name', allowed: TOOL_SHAPES })

const toolObject = Schema.object({
  name: hinted(Schema.string().min(1).required(), { expected: 'a non-empty tool name', allowed: 'a non-empty string' }),
  description: hinted(Schema.string(), { expected: 'a string', allowed: 'the description the model sees; default "<name> tool"' }),
  parameters: hinted(absentWhenOmitted(Schema.dict(Schema.any())), {
    expected: 'a JSON-schema mapping',
    allowed: 'a JSON-schema object; default {type: object, properties: {}}',
  }),
})

const toolItem = hinted(Schema.union([toolName, toolObject]), {
  expected: 'a tool name or {name, description, parameters}',
  allowed: 'a non-empty tool name, or a mapping with name and optional description and parameters',
})

const toolList = hinted(absentWhenOmitted(Schema.array(toolItem).min(1)), { expected: 'a non-empty list of tools', allowed: TOOL_SHAPES })

const toolBatches = hinted(absentWhenOmitted(Schema.array(toolList).min(1)), {
  expected: 'a non-empty list of tool batches',
  allowed: 'a list of non-empty lists of tools, e.g. [[read], [write, edit]]',
})

const toolNames = (role: string) => stringList('a list of tool names', `tool names to ${role}`, {
  expected: 'a non-empty tool name', allowed: `tool names to ${role}`,
}, true)

const listener = hinted(absentWhenOmitted(Schema.object({
  append: toolNames('add at the end'),
  prepend: toolNames('add at the front'),
  reverse: hinted(Schema.boolean().default(false), { expected: 'true or false', allowed: 'whether to reverse the tool list' }),
  remove: toolNames('drop'),
})), {
  expected: 'a mapping of listener actions',
  allowed: 'at least one of append, prepend, remove (tool names) and reverse (true or false)',
})

const pluginIds = (role: string) => stringList('a list of plugin ids', `ids of other plugins in this file that must ${role}`, {
  expected: 'a plugin id', allowed: 'the id of another plugin in this file',
})

const when = hinted(absentWhenOmitted(Schema.object({
  after: pluginIds('have registered first'),
  before: pluginIds('not have registered yet'),
})), {
  expected: 'a mapping with after and/or before',
  allowed: 'after: [plugin ids], before: [plugin ids]',
})

const pluginEntry = hinted(Schema.object({
  id: hinted(Schema.string().pattern(PLUGIN_ID).required(), {
    expected: 'a plugin id',
    allowed: 'letters, digits, ".", "_" and "-", starting with a letter or digit; unique in the file',
  }),
  tools: toolList,
  batches: toolBatches,
  module: hinted(Schema.string().min(1), {
    expected: 'a module path',
    allowed: 'a cordis plugin module: a relative path, or an installed package specifier, resolved from the scenario file\'s folder',
  }),
  config: hinted(absentWhenOmitted(Schema.dict(Schema.any())), { expected: 'a mapping', allowed: 'the config passed to the plugin module' }),
  listener,
  when,
  fault: hinted(oneOf(FAULT_KINDS), oneOfHint('fault', FAULT_KINDS)),
  inject: stringList('a list of service names', 'service names the entry injects, cordis.yml style', {
    expected: 'a non-empty service name', allowed: 'a service name',
  }, true),
  weight: hinted(Schema.number(), { expected: 'a number', allowed: 'a finite number, read by the per-plugin-weight variant' }),
}), {
  expected: 'a plugin entry mapping',
  allowed: 'a mapping with an id and one of tools, batches, module, listener, or a fault',
})

const appConfig = hinted(Schema.object({
  persona: hinted(Schema.string(), { expected: 'a string', allowed: 'the persona text' }),
  toolOrder: hinted(absentWhenOmitted(Schema.array(hinted(Schema.string(), {
    expected: 'a tool name string',
    allowed: 'a string; "<unlisted-tools>" marks the rest entry',
  }))), {
    expected: 'a list of tool names',
    allowed: 'a list of strings; whether it is a valid order is for the system to decide',
  }),
}), { expected: 'a mapping', allowed: 'persona and toolOrder' })

const HEADER_SHAPES = 'a tool name, or {name, description, parameters} with the description and parameters the model must see'

const expectedTool = hinted(Schema.union([
  hinted(Schema.string().min(1), { expected: 'a non-empty tool name', allowed: HEADER_SHAPES }),
  Schema.object({
    name: hinted(Schema.string().min(1).required(), { expected: 'a non-empty tool name', allowed: 'a non-empty string' }),
    description: hinted(Schema.string(), { expected: 'a string', allowed: 'the exact description the model must see' }),
    parameters: hinted(absentWhenOmitted(Schema.dict(Schema.any())), {
      expected: 'a JSON-schema mapping',
      allowed: 'the exact parameters the model must see, key order included',
    }),
  }),
]), { expected: 'a tool name or {name, description, parameters}', allowed: HEADER_SHAPES })

/** An expected header as a list: one entry per header tool, in header order. Also the content of an `expect.header` file. */
export const ExpectedHeaderSchema = hinted(absentWhenOmitted(Schema.array(expectedTool)), {
  expected: 'a list of tools',
  allowed: `the header's tools in order, each ${HEADER_SHAPES}`,
})

/** Where an `expect.header` list may come from. */
export const HEADER_SOURCES = 'an inline list of tools, or the path of a JSON file holding one, relative to the scenario file'

const expectation = hinted(Schema.object({
  outcome: hinted(oneOf(OUTCOMES).required(), oneOfHint('outcome', OUTCOMES)),
  tools: absentWhenOmitted(stringList('a list of tool names', 'the expected header tool order', {
    expected: 'a tool name string', allowed: 'a tool name',
  })),
  header: hinted(absentWhenOmitted(Schema.union([
    hinted(Schema.string().min(1), { expected: 'a JSON file path', allowed: HEADER_SOURCES }),
    ExpectedHeaderSchema,
  ])), { expected: 'a list of tools or a JSON file path', allowed: HEADER_SOURCES }),
  inactive: absentWhenOmitted(stringList('a list of entry ids', 'ids of the loader entries expected never to become active', {
    expected: 'an entry id', allowed: 'the id of a plugin entry (a cordis.yml entry: its id below the file, nested ids joined by ".")',
  }, true)),
  error: hinted(Schema.string(), { expected: 'a string', allowed: 'a substring of the expected error message' }),
  deterministic: hinted(Schema.boolean(), {
    expected: 'true or false',
    allowed: 'false when the scenario demonstrates a race the sweep must find; default true (false with snapshot: pins-one)',
  }),
  snapshot: hinted(oneOf(SNAPSHOT_STATUSES), oneOfHint('snapshot status', SNAPSHOT_STATUSES)),
}).required(), { expected: 'a mapping', allowed: 'outcome, and optionally tools or header, inactive, error, deterministic, snapshot' })

const range = (low: number, high: number) => Schema.natural().min(low).max(high)

const flag = (what: string) => hinted(Schema.boolean(), { expected: 'true or false', allowed: what })

/** The base composition's own config, as a deployment's cordis.yml sets it for those services. */
const base = hinted(Schema.object({
  systemPrompt: hinted(Schema.object({
    includeHarnessIdentity: flag('whether the system prompt opens with the harness identity section; default true'),
    includeRuntimeContext: flag('whether runtime-context entries reach the model; default true'),
  }), { expected: 'a mapping', allowed: 'includeHarnessIdentity, includeRuntimeContext (persona and toolOrder go under config:)' }),
  tools: hinted(absentWhenOmitted(Schema.dict(Schema.any())), {
    expected: 'a mapping',
    allowed: 'the tool runtime\'s plugin config, e.g. {mode: native} for dsh-tools; the service validates it',
  }),
  agent: hinted(Schema.object({
    provider: hinted(Schema.string().min(1), { expected: 'a provider route', allowed: 'the route the scripted model serves; default mock' }),
    model: hinted(Schema.string().min(1), { expected: 'a model name', allowed: 'the model the agent asks for ({{model}}); default mock' }),
    cwd: hinted(Schema.string().min(1), { expected: 'a folder', allowed: 'the agent session\'s working directory ({{cwd}}), relative to the scenario file' }),
  }), { expected: 'a mapping', allowed: 'provider, model, cwd of the agent the turns run on' }),
}), { expected: 'a mapping', allowed: 'systemPrompt, tools, agent' })

/** The whole scenario file. */
export const ScenarioFileSchema = hinted(Schema.object({
  name: hinted(Schema.string().pattern(SCENARIO_NAME), {
    expected: 'a name of lowercase letters, digits and dashes',
    allowed: 'matching [a-z0-9-]+; defaults to the file name',
  }),
  description: hinted(Schema.string(), { expected: 'a string', allowed: 'free text' }),
  app: hinted(oneOf(APP_NAMES).default('stdio-agent'), oneOfHint('app', APP_NAMES)),
  config: appConfig,
  base,
  variant: hinted(oneOf(VARIANT_NAMES).default('canonical'), oneOfHint('variant', VARIANT_NAMES)),
  target: targetName,
  turns: hinted(range(TURN_RANGE.min, TURN_RANGE.max).default(TURN_RANGE.min), {
    expected: `an integer from ${TURN_RANGE.min} to ${TURN_RANGE.max}`,
    allowed: `${TURN_RANGE.min}..${TURN_RANGE.max}, default ${TURN_RANGE.min}`,
  }),
  invariant: hinted(Schema.boolean().default(false), {
    expected: 'true or false', allowed: 'whether to mount the reconstruction invariant; default false',
  }),
  loader: hinted(oneOf(LOADER_MODES).default('memory'), oneOfHint('loader mode', LOADER_MODES)),
  services: hinted(oneOf(SERVICE_MODES).default('root'), oneOfHint('services mode', SERVICE_MODES)),
  timeout: hinted(range(TIMEOUT_RANGE.min, TIMEOUT_RANGE.max), {
    expected: `an integer from ${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max}`,
    allowed: `milliseconds per interleaving, ${TIMEOUT_RANGE.min}..${TIMEOUT_RANGE.max}`,
  }),
  host: hinted(Schema.string().min(1), {
    expected: 'a host name',
    allowed: `the host the scenario runs on unless --host or --hosts says otherwise: ${HOST_FORMS}`,
  }),
  process: hinted(oneOf(PROCESS_MODES), oneOfHint('process mode', PROCESS_MODES)),
  budget: hinted(range(1, Number.MAX_SAFE_INTEGER), {
    expected: 'a whole number ≥ 1',
    allowed: 'the most interleavings this scenario may run; the smaller of this and --budget applies',
  }),
  plugins: hinted(absentWhenOmitted(Schema.array(pluginEntry).min(1)), {
    expected: 'a non-empty list of plugin entries',
    allowed: PLUGINS_ALLOWED,
  }),
  entries: hinted(Schema.string().min(1), {
    expected: 'a cordis.yml path',
    allowed: 'the path of a cordis.yml whose entries the loader mounts, relative to the scenario file',
  }),
  env: hinted(Schema.dict(hinted(Schema.string(), { expected: 'a string', allowed: 'the variable\'s value, a string (quote numbers)' })), {
    expected: 'a mapping of variable names to strings',
    allowed: 'environment variables the system sees in every interleaving, e.g. {DSH_PERMISSION_MODE: read-only}',
  }),
  model: hinted(absentWhenOmitted(Schema.object({
    replaces: hinted(Schema.string().min(1).required(), { expected: 'an entry id', allowed: 'the id of the live model adapter\'s entry in the cordis.yml (nested ids joined by ".")' }),
    providers: stringList('a list of provider routes', 'the routes the scripted model serves, as the application\'s agents name them', { expected: 'a route', allowed: 'a provider route, e.g. deepseek-official' }),
    models: stringList('a list of model ids', 'the models it answers as', { expected: 'a model id', allowed: 'a model id, e.g. deepseek-v4-pro' }),
  })), { expected: 'a mapping', allowed: 'replaces: the live adapter entry, providers, models: what loadrace\'s scripted model serves in its place' }),
  snapshot: hinted(Schema.string().min(1), {
    expected: 'a snapshot folder',
    allowed: 'a dsh snapshot folder (tests/snapshots/NAME: input.json, session.jsonl and the pinned files), relative to the scenario file',
  }),
  pinned: hinted(absentWhenOmitted(Schema.object({
    systemPrompt: hinted(Schema.string().min(1).required(), { expected: 'a file path', allowed: 'the system-prompt.expected.md of the snapshot\'s header class\'s pin, relative to the scenario file' }),
    toolSchemas: hinted(Schema.string().min(1).required(), { expected: 'a file path', allowed: 'the tool-schemas.expected.json of the snapshot\'s header class\'s pin, relative to the scenario file' }),
    role: hinted(oneOf(PIN_ROLES).default('classmate'), oneOfHint('pin role', PIN_ROLES)),
  })), {
    expected: 'a mapping',
    allowed: 'with snapshot: systemPrompt and toolSchemas, the files of its header class\'s pin, and role: classmate (default) or pin',
  }),
  requires: hinted(absentWhenOmitted(Schema.object({
    commands: hinted(absentWhenOmitted(Schema.array(hinted(Schema.string().pattern(COMMAND_NAME), {
      expected: 'a command name', allowed: 'a command name looked up on PATH, without a folder or spaces, e.g. pwsh',
    }))), { expected: 'a list of command names', allowed: 'commands found on PATH when the sweep runs, e.g. [pwsh]' }),
    platforms: hinted(absentWhenOmitted(Schema.array(hinted(oneOf(PLATFORMS), oneOfHint('platform', PLATFORMS)))), {
      expected: 'a list of platforms', allowed: `platforms the scenario runs on: ${PLATFORMS.join(', ')} (posix: every one but win32)`,
    }),
  })), {
    expected: 'a mapping',
    allowed: 'commands: [names found on PATH] and/or platforms: [posix, linux, darwin, win32, …]; a sweep skips the scenario where they are not met',
  }),
  expect: expectation,
}), { expected: 'a YAML mapping', allowed: 'a YAML mapping of scenario keys' })

/** A scenario file as the schema outputs it: checked, with defaults filled in. */
export type ScenarioFile = ReturnType<typeof ScenarioFileSchema>
