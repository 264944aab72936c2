/**
 * Generators of malformed scenario files. Each starts from a valid scenario
 * document and injects exactly one defect, so the loader's one error line must
 * name the field path the defect sits at. One small arbitrary per defect
 * class; `badScenario` composes them with `fc.oneof`.
 */
import fc from 'fast-check'
import { stringify } from 'yaml'
import { VARIANT_NAMES } from '../../src/variants/variant.ts'
import { targetNames } from '../../harness/targets/registry.ts'
import { APP_NAMES, FAULT_KINDS, LOADER_MODES, RESERVED_SERVICE_IDS, SERVICE_MODES, TIMEOUT_RANGE, TURN_RANGE } from '../../harness/scenario/scenario.ts'
import { OUTCOMES } from '../../harness/verdict/outcome.ts'

/** A plugin entry of a scenario document, as YAML holds it. */
export type EntryDoc = Record<string, unknown>

/** A scenario document before it is written as YAML. */
export interface ScenarioDoc extends Record<string, unknown> {
  plugins: EntryDoc[]
  expect: Record<string, unknown>
}

/** The defect classes `badScenario` draws from, one small arbitrary each. */
export const DEFECT_CLASSES = [
  'invalid-yaml', 'wrong-type', 'unknown-key', 'plugin-id', 'tool-name', 'unknown-choice', 'module', 'batches',
  'out-of-range', 'missing-required', 'unsafe-yaml', 'expected-header',
] as const
export type DefectClass = typeof DEFECT_CLASSES[number]

/** One malformed file: its text, the field path its error line must name, and the class of its defect. */
export interface BadScenario {
  defect: DefectClass
  text: string
  /** As the loader formats it: `plugins[1].tools[0]`, or `(file)` for the file as a whole. */
  path: string
}

/** The plugin modules the `module` defects and the valid documents point at, relative to the scenario folder. */
export const PLUGIN_MODULES: Readonly<Record<string, string>> = {
  'plugins/good.mjs': 'export default function good() {}\n',
  'plugins/no-plugin.mjs': 'export const name = "exports no apply"\n',
  'plugins/not-a-plugin.mjs': 'export default { name: "not a plugin" }\n',
}

/** The `expect.header` files the `expected-header` defects and the valid documents point at, relative to the scenario folder. */
export const HEADER_FILES: Readonly<Record<string, string>> = {
  'headers/good.json': '[{"name": "alpha", "description": "alpha tool"}, "beta"]\n',
  'headers/not-json.json': '[{"name": "alpha",]\n',
  'headers/not-a-list.json': '{"name": "alpha"}\n',
  'headers/bad-name.json': '["alpha", {"name": 3}]\n',
  'headers/bad-description.json': '[{"name": "alpha", "description": ["x"]}]\n',
  'headers/unknown-key.json': '[{"name": "alpha", "colour": "red"}]\n',
}

// ---------------------------------------------------------------- valid documents

const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/)
const pluginId = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/).filter((id) => !RESERVED_SERVICE_IDS.includes(id))

const toolItem: fc.Arbitrary<unknown> = fc.oneof(
  toolName,
  fc.record({ name: toolName, description: fc.string({ maxLength: 20 }) }, { requiredKeys: ['name'] }),
)
const toolList = fc.array(toolItem, { minLength: 1, maxLength: 3 })

/** The body of one valid entry (everything but its id). */
const entryBody: fc.Arbitrary<EntryDoc> = fc.oneof(
  fc.record({ tools: toolList, weight: fc.integer({ min: -5, max: 5 }) }, { requiredKeys: ['tools'] }),
  fc.record({ batches: fc.array(toolList, { minLength: 1, maxLength: 3 }), inject: fc.constant(['tools']) }, { requiredKeys: ['batches'] }),
  fc.record({ listener: fc.record({ append: fc.array(toolName, { minLength: 1, maxLength: 2 }), reverse: fc.boolean() }, { requiredKeys: ['append'] }) }),
  fc.record({ module: fc.constant('./plugins/good.mjs'), config: fc.dictionary(toolName, fc.integer(), { maxKeys: 2 }) }, { requiredKeys: ['module'] }),
)

const headerItem: fc.Arbitrary<unknown> = fc.oneof(
  toolName,
  fc.record({ name: toolName, description: fc.string({ maxLength: 20 }), parameters: fc.constant({ type: 'object', properties: {} }) }, { requiredKeys: ['name'] }),
)

const expectation = fc.oneof(
  fc.record({ outcome: fc.constantFrom('completed', 'stuck'), tools: fc.array(toolName, { maxLength: 3 }), deterministic: fc.boolean() }, { requiredKeys: ['outcome'] }),
  fc.record({ outcome: fc.constantFrom('completed', 'load-error'), header: fc.oneof(fc.array(headerItem, { maxLength: 3 }), fc.constant('./headers/good.json')) }),
  fc.record({ outcome: fc.constantFrom('turn-error', 'load-error'), error: fc.string({ maxLength: 20 }) }),
)

/** A valid scenario document: 1–4 plugins with unique ids, optional top-level keys, an expectation. */
export const validScenarioDoc: fc.Arbitrary<ScenarioDoc> = fc.record({
  top: fc.record({
    name: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
    description: fc.string({ maxLength: 30 }),
    // app: entries needs a cordis.yml and the dsh target: the valid documents list their plugins.
    app: fc.constantFrom(...APP_NAMES.filter(app => app !== 'entries')),
    variant: fc.constantFrom(...VARIANT_NAMES),
    target: fc.constantFrom(...targetNames()),
    turns: fc.integer(TURN_RANGE),
    timeout: fc.integer(TIMEOUT_RANGE),
    invariant: fc.boolean(),
    loader: fc.constantFrom(...LOADER_MODES),
    services: fc.constantFrom(...SERVICE_MODES),
    config: fc.record({ persona: fc.string({ maxLength: 20 }), toolOrder: fc.array(toolName, { maxLength: 3 }) }, { requiredKeys: [] }),
  }, { requiredKeys: [] }),
  ids: fc.uniqueArray(pluginId, { minLength: 1, maxLength: 4 }),
  bodies: fc.array(entryBody, { minLength: 4, maxLength: 4 }),
  expect: expectation,
}).map(({ top, ids, bodies, expect }) => ({
  ...top,
  plugins: ids.map((id, index) => ({ id, ...bodies[index] })),
  expect,
}))

// ---------------------------------------------------------------- building defects

/** A copy of `record` with `key` set last, as an own property even for `__proto__`. */
function withKey(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {}
  for (const [name, inner] of Object.entries(record)) if (name !== key) define(copy, name, inner)
  define(copy, key, value)
  return copy
}

function define(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true })
}

function without(record: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => !keys.includes(name)))
}

/** Keys that belong to one kind of entry (the kind itself, or what only some kinds take). */
const KIND_KEYS = ['tools', 'batches', 'module', 'listener', 'config', 'when', 'fault'] as const

/** The document with the entry at `at` (wrapped onto the list) replaced by `build(entry)`, and that entry's index. */
function replaceEntry(doc: ScenarioDoc, at: number, build: (entry: EntryDoc) => EntryDoc): { doc: ScenarioDoc, index: number } {
  const index = at % doc.plugins.length
  const plugins = doc.plugins.map((entry, i) => (i === index ? build(entry) : entry))
  return { doc: { ...doc, plugins }, index }
}

/** The entry without any kind-specific key, then `body`'s keys in order: the same id, another kind. */
function asKind(entry: EntryDoc, body: Record<string, unknown>): EntryDoc {
  let rebuilt: Record<string, unknown> = without(entry, ...KIND_KEYS)
  for (const [key, value] of Object.entries(body)) rebuilt = withKey(rebuilt, key, value)
  return rebuilt
}

function render(doc: Record<string, unknown>): string {
  return stringify(doc)
}

function bad(defect: DefectClass, doc: Record<string, unknown>, path: string): BadScenario {
  return { defect, text: render(doc), path }
}

/** Values of every YAML type but the one named. */
function wrongValue(not: 'string' | 'number' | 'boolean' | 'list' | 'mapping'): fc.Arbitrary<unknown> {
  const all: Record<typeof not, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 8 }),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    list: fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 2 }),
    mapping: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.integer(), { maxKeys: 2 }),
  }
  return fc.oneof(fc.constant(null), ...Object.entries(all).filter(([kind]) => kind !== not).map(([, arbitrary]) => arbitrary))
}

/** A string that is not one of `names` (near misses included). */
function unknownName(names: readonly string[]): fc.Arbitrary<string> {
  const nearMisses = names.flatMap((name) => [name.toUpperCase(), `${name} `, name.replace(/-/g, '_'), `${name}s`])
  return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...nearMisses)).filter((text) => !names.includes(text))
}

// ---------------------------------------------------------------- the defect classes

/** Fragments no YAML parser accepts, appended or prepended to a valid document. */
const BROKEN_YAML = [
  'description: "unterminated\n',
  'plugins: [a, b\n',
  'x: y: z\n',
  '\tturns: 1\n',
  'a: [}\n',
  'desc: {a: 1\n',
  'key: @value\n',
  'key: `tick\n',
  'k: |\n  ok\n bad\n',
]

const invalidYaml = fc.record({ doc: validScenarioDoc, fragment: fc.constantFrom(...BROKEN_YAML), before: fc.boolean() })
  .map(({ doc, fragment, before }): BadScenario => {
    const text = render(doc)
    return { defect: 'invalid-yaml', text: before ? fragment + text : text + fragment, path: '(file)' }
  })

type Kind = Parameters<typeof wrongValue>[0]

/** Fields outside the plugin entries, and the type each must have. */
const TOP_FIELDS: readonly (readonly [string[], Kind])[] = [
  [['name'], 'string'], [['description'], 'string'], [['turns'], 'number'], [['timeout'], 'number'], [['invariant'], 'boolean'],
  [['plugins'], 'list'], [['expect'], 'mapping'], [['config'], 'mapping'], [['config', 'persona'], 'string'], [['config', 'toolOrder'], 'list'],
  [['expect', 'outcome'], 'string'], [['expect', 'deterministic'], 'boolean'], [['expect', 'tools'], 'list'],
  [['expect', 'header'], 'list'],
]

/** Fields of a plugin entry, the type each must have, and the kind of entry they belong to. */
const ENTRY_FIELDS: readonly (readonly [string, Kind, Record<string, unknown>])[] = [
  ['id', 'string', {}], ['tools', 'list', {}], ['batches', 'list', {}], ['module', 'string', {}], ['listener', 'mapping', {}],
  ['weight', 'number', { tools: ['x'] }], ['inject', 'list', { tools: ['x'] }], ['when', 'mapping', { tools: ['x'] }],
  ['config', 'mapping', { module: './plugins/good.mjs' }], ['fault', 'string', { tools: ['x'] }],
]

/** Sets `path` (one or two keys) of the document's top level, creating the parent mapping when needed. */
function setTop(doc: ScenarioDoc, path: readonly string[], value: unknown): Record<string, unknown> {
  const [first, second] = path as [string, string | undefined]
  if (second === undefined) return withKey(doc, first, value)
  const parent = doc[first]
  const base = typeof parent === 'object' && parent !== null && !Array.isArray(parent) ? parent as Record<string, unknown> : {}
  return withKey(doc, first, withKey(base, second, value))
}

const wrongType = fc.oneof(
  fc.constantFrom(...TOP_FIELDS).chain(([path, kind]) => fc.record({ doc: validScenarioDoc, value: wrongValue(kind) })
    .map(({ doc, value }) => {
      // expect.deterministic and expect.tools stay valid only next to a non-error outcome.
      const base = path[0] === 'expect' && path[1] !== 'outcome' ? { ...doc, expect: { outcome: 'completed' } } : doc
      return bad('wrong-type', setTop(base, path, value), path.join('.'))
    })),
  fc.constantFrom(...ENTRY_FIELDS).chain(([key, kind, companion]) => fc.record({ doc: validScenarioDoc, at: fc.nat(), value: wrongValue(kind) })
    .map(({ doc, at, value }) => {
      const { doc: mutated, index } = replaceEntry(doc, at, (entry) => key === 'id' ? withKey(entry, 'id', value) : asKind(entry, { ...companion, [key]: value }))
      return bad('wrong-type', mutated, `plugins[${index}].${key}`)
    })),
  fc.record({ doc: validScenarioDoc, at: fc.nat(), value: wrongValue('mapping') }).map(({ doc, at, value }) => {
    const index = at % doc.plugins.length
    const plugins: unknown[] = doc.plugins.map((entry, i) => (i === index ? value : entry))
    return bad('wrong-type', { ...doc, plugins }, `plugins[${index}]`)
  }),
)

/** Keys that look like something JavaScript objects already have. */
const PROTOTYPE_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']

function unknownKeyOf(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,9}$/), fc.constantFrom(...PROTOTYPE_KEYS, 'Tools', 'ID', 'plugin', 'expects', 'tool_order'))
    .filter((key) => !known.includes(key))
}

const TOP_KEYS = ['name', 'description', 'app', 'config', 'base', 'variant', 'target', 'turns', 'invariant', 'loader', 'services', 'timeout', 'budget', 'plugins', 'entries', 'expect']
const ENTRY_KEYS = ['id', 'tools', 'batches', 'module', 'config', 'listener', 'when', 'fault', 'inject', 'weight']

/** Known keys of the mappings inside a plugin entry an unknown key can go into, and how to build that entry. */
const ENTRY_PLACES: readonly (readonly [readonly string[], string, (key: string, value: unknown) => Record<string, unknown>])[] = [
  [['name', 'description', 'parameters'], '.tools[0]', (key, value) => ({ tools: [withKey({ name: 'x' }, key, value)] })],
  [['append', 'prepend', 'reverse', 'remove'], '.listener', (key, value) => ({ listener: withKey({ append: ['x'] }, key, value) })],
  [['after', 'before'], '.when', (key, value) => ({ tools: ['x'], when: withKey({ before: [] }, key, value) })],
]

/** Where an unknown key goes: the keys known there, and how to put it in (the document and the key's path). */
const UNKNOWN_KEY_PLACES: readonly { known: readonly string[], put: (doc: ScenarioDoc, at: number, key: string, value: unknown) => [Record<string, unknown>, string] }[] = [
  { known: TOP_KEYS, put: (doc, _at, key, value) => [withKey(doc, key, value), key] },
  { known: ['outcome', 'tools', 'header', 'error', 'deterministic'], put: (doc, _at, key, value) => [{ ...doc, expect: withKey(doc.expect, key, value) }, `expect.${key}`] },
  {
    known: ['name', 'description', 'parameters'],
    put: (doc, _at, key, value) => [{ ...doc, expect: { outcome: 'completed', header: ['x', withKey({ name: 'y' }, key, value)] } }, `expect.header[1].${key}`],
  },
  { known: ['persona', 'toolOrder'], put: (doc, _at, key, value) => [withKey(doc, 'config', withKey({ persona: 'p' }, key, value)), `config.${key}`] },
  {
    known: ENTRY_KEYS,
    put: (doc, at, key, value) => {
      const { doc: mutated, index } = replaceEntry(doc, at, (entry) => withKey(asKind(entry, { tools: ['x'] }), key, value))
      return [mutated, `plugins[${index}].${key}`]
    },
  },
  ...ENTRY_PLACES.map(([known, suffix, body]) => ({
    known,
    put: (doc: ScenarioDoc, at: number, key: string, value: unknown): [Record<string, unknown>, string] => {
      const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, body(key, value)))
      return [mutated, `plugins[${index}]${suffix}.${key}`]
    },
  })),
]

const unknownKey = fc.constantFrom(...UNKNOWN_KEY_PLACES).chain((place) => fc.record({
  doc: validScenarioDoc, at: fc.nat(), key: unknownKeyOf(place.known), value: fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.boolean()),
}).map(({ doc, at, key, value }) => {
  const [mutated, path] = place.put(doc, at, key, value)
  return bad('unknown-key', mutated, path)
}))

const pluginIdDefect = fc.record({
  doc: validScenarioDoc,
  at: fc.nat(),
  how: fc.oneof(
    fc.constant({ kind: 'empty' as const }),
    fc.constant({ kind: 'missing' as const }),
    fc.constant({ kind: 'duplicate' as const }),
    fc.constantFrom('-a', 'a b', '.x', '_a', 'a/b', 'é', 'a:b').map((id) => ({ kind: 'pattern' as const, id })),
  ),
}).map(({ doc, at, how }) => {
  if (how.kind === 'duplicate') {
    // A copy of an earlier entry's id, on a later entry (added when the document has one plugin).
    const plugins = doc.plugins.length > 1 ? doc.plugins : [...doc.plugins, { id: 'other', tools: ['x'] }]
    const later = 1 + (at % (plugins.length - 1))
    const earlier = at % later
    const copied = plugins.map((entry, i) => (i === later ? withKey(entry, 'id', plugins[earlier]!.id) : entry))
    return bad('plugin-id', { ...doc, plugins: copied }, `plugins[${later}].id`)
  }
  const { doc: mutated, index } = replaceEntry(doc, at, (entry) => {
    if (how.kind === 'missing') return without(entry, 'id')
    return withKey(entry, 'id', how.kind === 'empty' ? '' : how.id)
  })
  return bad('plugin-id', mutated, `plugins[${index}].id`)
})

const notToolName = fc.oneof(fc.constant(''), fc.integer(), fc.boolean(), fc.constant(null), fc.array(toolName, { minLength: 1, maxLength: 2 }))
const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(toolName, { minLength: 1, maxLength: 2 }))

/** `names` with `item` inserted at `at` (wrapped onto the list). */
function insertAt(names: readonly unknown[], at: number, item: unknown): { list: unknown[], position: number } {
  const position = at % (names.length + 1)
  return { list: [...names.slice(0, position), item, ...names.slice(position)], position }
}

const toolNameDefect = fc.record({
  doc: validScenarioDoc,
  at: fc.nat(),
  slot: fc.nat(),
  names: fc.array(toolName, { minLength: 1, maxLength: 3 }),
  item: notToolName,
  nameValue: fc.oneof(fc.constant(''), notString),
  place: fc.constantFrom('tools', 'tool-object', 'tool-object-no-name', 'batches', 'listener', 'expect', 'expect-header', 'tool-order'),
  action: fc.constantFrom('append', 'prepend', 'remove'),
}).map(({ doc, at, slot, names, item, nameValue, place, action }) => {
  const { list, position } = insertAt(names, slot, item)
  switch (place) {
    case 'expect': {
      // expect.tools may hold any string (even ""): only a non-string is wrong there.
      const { list: tools, position: k } = insertAt(names, slot, item === '' ? 0 : item)
      return bad('tool-name', { ...doc, expect: { outcome: 'completed', tools } }, `expect.tools[${k}]`)
    }
    case 'expect-header': {
      // A header item is a non-empty name or a mapping with one: "", a number, a list or null is not.
      return bad('tool-name', { ...doc, expect: { outcome: 'completed', header: list } }, `expect.header[${position}]`)
    }
    case 'tool-order': {
      const { list: toolOrder, position: k } = insertAt(names, slot, item === '' ? 0 : item)
      return bad('tool-name', withKey(doc, 'config', { toolOrder }), `config.toolOrder[${k}]`)
    }
    default: {
      const objects = names.map((name) => ({ name }))
      const bodies = {
        'tools': [{ tools: list }, `.tools[${position}]`],
        'tool-object': [{ tools: insertAt(objects, slot, { name: nameValue, description: 'd' }).list }, `.tools[${position}].name`],
        'tool-object-no-name': [{ tools: insertAt(objects, slot, { description: 'd' }).list }, `.tools[${position}].name`],
        'batches': [{ batches: [names, list] }, `.batches[1][${position}]`],
        'listener': [{ listener: { [action]: list } }, `.listener.${action}[${position}]`],
      } as const
      const [body, suffix] = bodies[place]
      const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, body))
      return bad('tool-name', mutated, `plugins[${index}]${suffix}`)
    }
  }
})

/** Keys that take one of a fixed set of names. */
const CHOICES: readonly (readonly [string, readonly string[]])[] = [
  ['variant', VARIANT_NAMES], ['target', targetNames()], ['app', APP_NAMES], ['loader', LOADER_MODES], ['services', SERVICE_MODES],
  ['expect.outcome', OUTCOMES], ['fault', FAULT_KINDS],
]

const unknownChoice = fc.constantFrom(...CHOICES).chain(([key, names]) => fc.record({ doc: validScenarioDoc, at: fc.nat(), name: unknownName(names) })
  .map(({ doc, at, name }) => {
    if (key === 'fault') {
      const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, { tools: ['x'], fault: name }))
      return bad('unknown-choice', mutated, `plugins[${index}].fault`)
    }
    return bad('unknown-choice', setTop(doc, key.split('.'), name), key)
  }))

const moduleDefect = fc.record({
  doc: validScenarioDoc,
  at: fc.nat(),
  module: fc.oneof(
    fc.stringMatching(/^\.\/(gone|missing|nowhere)-[a-z0-9]{1,6}\.(mjs|js|ts)$/),
    // (A module that throws while importing is not bad input: it is the system's load error.)
    fc.constantFrom('./plugins/no-plugin.mjs', './plugins/not-a-plugin.mjs', './plugins', '../nowhere/plugin.ts', 'not-an-installed-package'),
  ),
}).map(({ doc, at, module }) => {
  // Entries before the broken one keep their (good) modules: modules load in file order.
  const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, { module }))
  return bad('module', mutated, `plugins[${index}].module`)
})

const batchesDefect = fc.record({
  doc: validScenarioDoc,
  at: fc.nat(),
  slot: fc.nat(),
  whole: fc.oneof(fc.constant([]), wrongValue('list').filter((value) => !Array.isArray(value))),
  batch: fc.oneof(fc.constant([]), wrongValue('list').filter((value) => !Array.isArray(value))),
  whichever: fc.boolean(),
}).map(({ doc, at, slot, whole, batch, whichever }) => {
  const good = [['read'], ['write']]
  const { list, position } = insertAt(good, slot, batch)
  const [batches, suffix] = whichever ? [whole, ''] : [list, `[${position}]`]
  const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, { batches }))
  return bad('batches', mutated, `plugins[${index}].batches${suffix}`)
})

const outOfRange = fc.oneof(
  fc.oneof(fc.integer({ max: TURN_RANGE.min - 1 }), fc.integer({ min: TURN_RANGE.max + 1 }), fc.constant(1.5)).map((turns) => ['turns', turns] as const),
  fc.oneof(fc.integer({ max: TIMEOUT_RANGE.min - 1 }), fc.integer({ min: TIMEOUT_RANGE.max + 1 }), fc.constant(250.5)).map((timeout) => ['timeout', timeout] as const),
  fc.constantFrom(Infinity, -Infinity, NaN).map((weight) => ['weight', weight] as const),
).chain(([key, value]) => fc.record({ doc: validScenarioDoc, at: fc.nat() }).map(({ doc, at }) => {
  if (key !== 'weight') return bad('out-of-range', withKey(doc, key, value), key)
  const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, { tools: ['x'], weight: value }))
  return bad('out-of-range', mutated, `plugins[${index}].weight`)
}))

const missingRequired = fc.record({ doc: validScenarioDoc, at: fc.nat(), what: fc.constantFrom('plugins', 'no-plugins', 'expect', 'expect.outcome', 'kind') })
  .map(({ doc, at, what }) => {
    switch (what) {
      case 'plugins': return bad('missing-required', without(doc, 'plugins'), 'plugins')
      case 'no-plugins': return bad('missing-required', { ...doc, plugins: [] }, 'plugins')
      case 'expect': return bad('missing-required', without(doc, 'expect'), 'expect')
      case 'expect.outcome': return bad('missing-required', { ...doc, expect: { deterministic: true } }, 'expect.outcome')
      case 'kind': {
        const { doc: mutated, index } = replaceEntry(doc, at, (entry) => asKind(entry, { inject: ['tools'] }))
        return bad('missing-required', mutated, `plugins[${index}]`)
      }
    }
  })

/** Top-level lines YAML's safe subset refuses, and the path each is reported at. */
const UNSAFE_LINES: readonly (readonly [string, string])[] = [
  ['description: !!js/function "function () { return 1 }"\n', 'description'],
  ['description: !!js/regexp /a+/g\n', 'description'],
  ['description: !!js/undefined ""\n', 'description'],
  ['description: !!python/object:os.system [ls]\n', 'description'],
  ['description: !custom value\n', 'description'],
  ['description: !!binary aGVsbG8=\n', 'description'],
  ['description: *nowhere\n', 'description'],
  ['plugins: []\n', 'plugins'],
  ['lol0: &a [x, x, x, x]\nlol1: &b [*a, *a, *a, *a]\nlol2: &c [*b, *b, *b, *b]\nlol3: [*c, *c, *c, *c]\n', '(file)'],
]

const unsafeYaml = fc.record({ doc: validScenarioDoc, line: fc.constantFrom(...UNSAFE_LINES) }).map(({ doc, line: [line, path] }) => {
  // `plugins: []` a second time is a duplicate key; every other line names a key the document does not have.
  const text = render(path === 'plugins' ? doc : without(doc, 'description')) + line
  return { defect: 'unsafe-yaml' as const, text, path }
})

/** A malformed `expect.header`: a file that cannot be used, or a header where it cannot apply. */
const expectedHeaderDefect = fc.record({
  doc: validScenarioDoc,
  what: fc.constantFrom(
    './headers/missing.json', './headers', './headers/not-json.json', './headers/not-a-list.json', './headers/bad-name.json',
    './headers/bad-description.json', './headers/unknown-key.json', 'with-tools', 'turn-error', 'stuck',
  ),
}).map(({ doc, what }) => {
  switch (what) {
    case 'with-tools': return bad('expected-header', { ...doc, expect: { outcome: 'completed', tools: ['a'], header: ['a'] } }, 'expect.header')
    case 'turn-error': return bad('expected-header', { ...doc, expect: { outcome: 'turn-error', header: ['a'] } }, 'expect.header')
    case 'stuck': return bad('expected-header', { ...doc, expect: { header: ['a'], outcome: 'stuck' } }, 'expect.header')
    default: return bad('expected-header', { ...doc, expect: { outcome: 'completed', header: what } }, 'expect.header')
  }
})

/** Every defect class, with its arbitrary. */
const DEFECTS: Readonly<Record<DefectClass, fc.Arbitrary<BadScenario>>> = {
  'invalid-yaml': invalidYaml,
  'wrong-type': wrongType,
  'unknown-key': unknownKey,
  'plugin-id': pluginIdDefect,
  'tool-name': toolNameDefect,
  'unknown-choice': unknownChoice,
  'module': moduleDefect,
  'batches': batchesDefect,
  'out-of-range': outOfRange,
  'missing-required': missingRequired,
  'unsafe-yaml': unsafeYaml,
  'expected-header': expectedHeaderDefect,
}

/** A malformed scenario file of any defect class, each class equally likely. */
export const badScenario: fc.Arbitrary<BadScenario> = fc.oneof(...DEFECT_CLASSES.map((defect) => DEFECTS[defect]))
