import { afterAll, describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { VARIANT_NAMES } from '../../../src/variants/variant.ts'
import { fixtureDir, minimal, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

/** Loads a file that must be malformed and returns its one error, checked to be a single clean line. */
async function failure(file: string): Promise<ScenarioError> {
  const thrown: unknown = await loadScenario(file).then(() => undefined, (error: unknown) => error)
  if (!(thrown instanceof ScenarioError)) throw new Error(`expected a ScenarioError, got ${String(thrown)}`)
  expect(thrown.line).not.toMatch(/[\r\n]/)
  expect(thrown.line).not.toMatch(/\n\s+at /)
  expect(thrown.line).toBe(`${thrown.file}: ${thrown.path}: ${thrown.problem} (${thrown.allowed})`)
  expect(thrown.message).toBe(thrown.line)
  return thrown
}

/** Writes `text` as `x.yml` in a fresh folder and returns the error with the folder prefix cut from its line. */
async function lineOf(text: string, name = 'x.yml'): Promise<string> {
  const dir = await fixtureDir()
  const error = await failure(await dir.write(name, text))
  return error.line.slice(dir.root.length + 1)
}

/** The path and problem of the error for `text`. */
async function pathAndProblem(text: string): Promise<[string, string]> {
  const dir = await fixtureDir()
  const error = await failure(await dir.write('x.yml', text))
  return [error.path, error.problem]
}

const entry = (body: string) => `plugins:\n  - id: a\n${body}expect: { outcome: completed }\n`

describe('file-level errors', () => {
  it('keeps the file path as given', async () => {
    const dir = await fixtureDir()
    const given = relative(process.cwd(), await dir.write('x.yml', 'variant: nope\n'))
    const error = await failure(given)
    expect(error.file).toBe(given)
    expect(error.line.startsWith(`${given}: variant: `)).toBe(true)
  })

  it('reports a missing file', async () => {
    const dir = await fixtureDir()
    const error = await failure(join(dir.root, 'missing.yml'))
    expect(error.path).toBe('(file)')
    expect(error.problem).toBe('cannot read the file: no such file or directory')
  })

  it('refuses a file without a scenario extension', async () => {
    expect(await lineOf(minimal(), 'x.json')).toBe('x.json: (file): not a scenario file: "x.json" (a readable .yml or .yaml scenario file)')
  })

  it('reports invalid YAML with its position, on one line', async () => {
    expect(await lineOf('name: x\nplugins: [a\nexpect: {}\n')).toMatch(
      /^x\.yml: \(file\): invalid YAML at line 3, column 1: .+ \(a YAML mapping\)$/,
    )
  })

  it('reports more than one document', async () => {
    expect(await lineOf(`${minimal()}---\n${minimal()}`)).toBe(
      'x.yml: (file): invalid YAML at line 6, column 1: the file holds more than one YAML document (a YAML mapping)',
    )
  })

  it('rejects a document that is not a mapping', async () => {
    // A list is a cordis.yml (swept with defaults), read as the loader reads one: entries are mappings.
    expect(await lineOf('- a\n- b\n')).toBe('x.yml: [0]: expected a loader entry, got "a" (a mapping with id and name)')
    expect((await pathAndProblem('just text\n'))[1]).toBe('expected a YAML mapping, got a scalar "just text"')
    expect((await pathAndProblem(''))[1]).toBe('expected a YAML mapping, got an empty document')
  })
})

describe('unsafe YAML', () => {
  it.each([
    ['!!js/function', 'description: !!js/function "function () {}"\n', 'description'],
    ['!!binary', 'description: !!binary aGVsbG8=\n', 'description'],
    ['!thing', 'plugins:\n  - !thing { id: a, tools: [a] }\n', 'plugins[0]'],
    ['!!set', 'config: !!set { a, b }\n', 'config'],
  ])('rejects the tag %s, naming it', async (tag, text, path) => {
    const [where, problem] = await pathAndProblem(text + 'expect: { outcome: completed }\n')
    expect(where).toBe(path)
    expect(problem).toBe(`unsupported tag "${tag}" at line ${text.split('\n').findIndex((line) => line.includes(tag)) + 1}`)
  })

  it('rejects a custom tag with the full line', async () => {
    expect(await lineOf('name: !!js/function "x"\n')).toBe(
      'x.yml: name: unsupported tag "!!js/function" at line 1 (plain YAML values: core-schema tags only, no custom tags)',
    )
  })

  it('rejects duplicate keys at the second occurrence', async () => {
    expect(await lineOf('plugins:\n  - id: a\n    tools: [x]\n    id: b\nexpect: { outcome: completed }\n')).toBe(
      'x.yml: plugins[0].id: duplicate key "id" at line 4, column 5 (each key at most once per mapping)',
    )
    expect(await pathAndProblem(`${minimal()}turns: 2\nturns: 3\n`)).toEqual(['turns', 'duplicate key "turns" at line 7, column 1'])
  })

  it('rejects merge keys', async () => {
    const text = 'base: &b { id: a, tools: [x] }\nplugins:\n  - <<: *b\n'
    expect(await pathAndProblem(text)).toEqual(['plugins[0]["<<"]', 'merge key "<<" at line 3, column 5 is not supported'])
  })

  it('rejects complex and tagged keys', async () => {
    expect(await pathAndProblem('? [a, b]\n: 1\n')).toEqual(['(file)', 'complex mapping key at line 1, column 3'])
    expect(await pathAndProblem(minimal('!k description: x\n'))).toEqual(['description', 'unsupported tag "!k" at line 1'])
  })

  it('rejects an alias without an anchor', async () => {
    expect(await pathAndProblem(minimal('description: *nowhere\n'))).toEqual(['description', 'alias "*nowhere" at line 1, column 14 has no anchor before it'])
  })

  it('rejects an alias bomb', async () => {
    const bomb = 'a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\ne: [*d, *d]\n'
    expect(await lineOf(bomb)).toBe('x.yml: (file): too many alias expansions (at most 16 per file)')
  })
})

describe('structural errors', () => {
  it('names an unknown top-level key and lists the allowed ones', async () => {
    expect(await lineOf(minimal('tolOrder: [a]\n'))).toBe(
      'x.yml: tolOrder: unknown key "tolOrder" (allowed keys: name, description, app, config, base, variant, target, turns, invariant, loader, services, timeout, host, process, budget, plugins, entries, env, model, snapshot, pinned, requires, expect)',
    )
  })

  it('names an unknown variant and lists every variant', async () => {
    expect(await lineOf(minimal('variant: canonicl\n'))).toBe(
      `x.yml: variant: unknown variant "canonicl"; did you mean "canonical"? (one of ${VARIANT_NAMES.join(', ')})`,
    )
  })

  it('says which known key or name a misspelt one is nearest to', async () => {
    expect(await lineOf(minimal('descripton: x\n'))).toBe(
      'x.yml: descripton: unknown key "descripton"; did you mean "description"? (allowed keys: name, description, app, config, base, variant, target, turns, invariant, loader, services, timeout, host, process, budget, plugins, entries, env, model, snapshot, pinned, requires, expect)',
    )
    expect(await pathAndProblem('plugins:\n  - { id: a, tools: [x] }\nexpcet: { outcome: completed }\n')).toEqual(['expcet', 'unknown key "expcet"; did you mean "expect"?'])
    expect(await pathAndProblem(minimal('config: { tolOrder: [a] }\n'))).toEqual(['config.tolOrder', 'unknown key "tolOrder"; did you mean "toolOrder"?'])
    expect(await pathAndProblem('plugins:\n  - { id: a, tools: [x] }\nexpect: { outcome: complted }\n')).toEqual(['expect.outcome', 'unknown outcome "complted"; did you mean "completed"?'])
    expect(await pathAndProblem('plugins:\n  - { id: a, tools: [x] }\nexpect: { outcome: load-eror }\n')).toEqual(['expect.outcome', 'unknown outcome "load-eror"; did you mean "load-error"?'])
    expect(await pathAndProblem(entry('    fault: aply-throws\n'))).toEqual(['plugins[0].fault', 'unknown fault "aply-throws"; did you mean "apply-throws"?'])
    expect(await pathAndProblem(entry('    tools: [x]\n    injcet: [tools]\n'))).toEqual(['plugins[0].injcet', 'unknown key "injcet"; did you mean "inject"?'])
    expect(await pathAndProblem('plugins:\n  - { id: tool-fs, tools: [x] }\nexpect: { outcome: completed, inactive: [tool-sf] }\n')).toEqual(['expect.inactive[0]', 'unknown entry id "tool-sf"; did you mean "tool-fs"?'])
  })

  it('reports the example batch error exactly', async () => {
    const text = 'plugins:\n  - id: a\n    tools: [a]\n  - id: b\n    tools: [b]\n  - id: c\n    batches: [[]]\nexpect: { outcome: completed }\n'
    expect(await lineOf(text)).toBe(
      'x.yml: plugins[2].batches[0]: expected a non-empty list of tools, got [] (a list of tool names or {name, description, parameters})',
    )
  })

  it('reports a missing required key', async () => {
    expect(await lineOf('expect: { outcome: completed }\n')).toBe(
      'x.yml: plugins: required key is missing (entries with an id and one of tools, batches, module, listener, or a fault; or entries: the path of a cordis.yml)',
    )
    expect(await pathAndProblem('plugins:\n  - tools: [x]\nexpect: { outcome: completed }\n')).toEqual(['plugins[0].id', 'required key is missing'])
    expect(await pathAndProblem('plugins:\n  - { id: a, tools: [x] }\n')).toEqual(['expect', 'required key is missing'])
    expect(await pathAndProblem('plugins:\n  - { id: a, tools: [x] }\nexpect: { tools: [x] }\n')).toEqual(['expect.outcome', 'required key is missing'])
  })

  it('rejects an explicit null', async () => {
    expect(await lineOf(minimal('description:\n'))).toBe('x.yml: description: expected a string, got null (free text)')
  })

  it.each([
    ['name: CI_Flake\n', 'name', 'expected a name of lowercase letters, digits and dashes, got "CI_Flake"'],
    ['app: desktop\n', 'app', 'unknown app "desktop"'],
    ['app: 3\n', 'app', 'expected a known app, got 3'],
    ['target: prod\n', 'target', 'unknown target "prod"'],
    ['loader: disk\n', 'loader', 'unknown loader mode "disk"'],
    ['services: all\n', 'services', 'unknown services mode "all"'],
    ['turns: 0\n', 'turns', 'expected an integer from 1 to 20, got 0'],
    ['turns: 21\n', 'turns', 'expected an integer from 1 to 20, got 21'],
    ['turns: 2.5\n', 'turns', 'expected an integer from 1 to 20, got 2.5'],
    ['turns: two\n', 'turns', 'expected an integer from 1 to 20, got "two"'],
    ['timeout: 99\n', 'timeout', 'expected an integer from 100 to 600000, got 99'],
    ['timeout: 600001\n', 'timeout', 'expected an integer from 100 to 600000, got 600001'],
    ['invariant: yes\n', 'invariant', 'expected true or false, got "yes"'],
    ['description: [a, b]\n', 'description', 'expected a string, got ["a", "b"]'],
    ['config: [persona]\n', 'config', 'expected a mapping, got ["persona"]'],
    ['config: { tolOrder: [a] }\n', 'config.tolOrder', 'unknown key "tolOrder"; did you mean "toolOrder"?'],
    ['config: { persona: 3 }\n', 'config.persona', 'expected a string, got 3'],
    ['config: { toolOrder: zulu }\n', 'config.toolOrder', 'expected a list of tool names, got "zulu"'],
    ['config: { toolOrder: }\n', 'config.toolOrder', 'expected a list of tool names, got null'],
    ['config: { toolOrder: [a, 3] }\n', 'config.toolOrder[1]', 'expected a tool name string, got 3'],
  ])('top level: %j', async (line, path, problem) => {
    expect(await pathAndProblem(minimal(line))).toEqual([path, problem])
  })

  it.each([
    ['plugins: []\n', 'plugins', 'expected a non-empty list of plugin entries, got []'],
    ['plugins: alpha\n', 'plugins', 'expected a non-empty list of plugin entries, got "alpha"'],
    ['plugins: [alpha]\n', 'plugins[0]', 'expected a plugin entry mapping, got "alpha"'],
    ['plugins:\n  - { id: -a, tools: [x] }\n', 'plugins[0].id', 'expected a plugin id, got "-a"'],
    ['plugins:\n  - { id: 7, tools: [x] }\n', 'plugins[0].id', 'expected a plugin id, got 7'],
    ['plugins:\n  - { id: a, tools: [x], colour: red }\n', 'plugins[0].colour', 'unknown key "colour"'],
  ])('plugin list: %j', async (text, path, problem) => {
    expect(await pathAndProblem(`${text}expect: { outcome: completed }\n`)).toEqual([path, problem])
  })

  it.each([
    ['    tools: []\n', 'plugins[0].tools', 'expected a non-empty list of tools, got []'],
    ['    tools: read\n', 'plugins[0].tools', 'expected a non-empty list of tools, got "read"'],
    ['    tools: [""]\n', 'plugins[0].tools[0]', 'expected a tool name or {name, description, parameters}, got ""'],
    ['    tools: [3]\n', 'plugins[0].tools[0]', 'expected a tool name or {name, description, parameters}, got 3'],
    ['    tools: [[a]]\n', 'plugins[0].tools[0]', 'expected a tool name or {name, description, parameters}, got ["a"]'],
    ['    tools: [{ description: d }]\n', 'plugins[0].tools[0].name', 'required key is missing'],
    ['    tools: [{ name: "" }]\n', 'plugins[0].tools[0].name', 'expected a non-empty tool name, got ""'],
    ['    tools: [{ name: a, args: {} }]\n', 'plugins[0].tools[0].args', 'unknown key "args"'],
    ['    tools: [{ name: a, description: 5 }]\n', 'plugins[0].tools[0].description', 'expected a string, got 5'],
    ['    tools: [{ name: a, parameters: [x] }]\n', 'plugins[0].tools[0].parameters', 'expected a JSON-schema mapping, got ["x"]'],
    ['    batches: []\n', 'plugins[0].batches', 'expected a non-empty list of tool batches, got []'],
    ['    batches: [read]\n', 'plugins[0].batches[0]', 'expected a non-empty list of tools, got "read"'],
    ['    batches: [[read], [""]]\n', 'plugins[0].batches[1][0]', 'expected a tool name or {name, description, parameters}, got ""'],
    ['    module: ""\n', 'plugins[0].module', 'expected a module path, got ""'],
    ['    module: ./m.ts\n    config: [1]\n', 'plugins[0].config', 'expected a mapping, got [1]'],
    ['    listener: [append]\n', 'plugins[0].listener', 'expected a mapping of listener actions, got ["append"]'],
    ['    listener: { append: x }\n', 'plugins[0].listener.append', 'expected a list of tool names, got "x"'],
    ['    listener: { reverse: 1 }\n', 'plugins[0].listener.reverse', 'expected true or false, got 1'],
    ['    listener: { sort: true }\n', 'plugins[0].listener.sort', 'unknown key "sort"'],
    ['    tools: [x]\n    when: { after: b }\n', 'plugins[0].when.after', 'expected a list of plugin ids, got "b"'],
    ['    tools: [x]\n    when: { during: [b] }\n', 'plugins[0].when.during', 'unknown key "during"'],
    ['    fault: explode\n', 'plugins[0].fault', 'unknown fault "explode"'],
    ['    tools: [x]\n    inject: tools\n', 'plugins[0].inject', 'expected a list of service names, got "tools"'],
    ['    tools: [x]\n    inject: [""]\n', 'plugins[0].inject[0]', 'expected a non-empty service name, got ""'],
    ['    tools: [x]\n    weight: heavy\n', 'plugins[0].weight', 'expected a number, got "heavy"'],
  ])('plugin entry: %j', async (body, path, problem) => {
    expect(await pathAndProblem(entry(body))).toEqual([path, problem])
  })

  it.each([
    ['{ outcome: done }', 'expect.outcome', 'unknown outcome "done"'],
    ['{ outcome: completed, tools: read }', 'expect.tools', 'expected a list of tool names, got "read"'],
    ['{ outcome: completed, tools: [1] }', 'expect.tools[0]', 'expected a tool name string, got 1'],
    ['{ outcome: load-error, error: [x] }', 'expect.error', 'expected a string, got ["x"]'],
    ['{ outcome: completed, deterministic: maybe }', 'expect.deterministic', 'expected true or false, got "maybe"'],
    ['{ outcome: completed, output: x }', 'expect.output', 'unknown key "output"'],
    ['completed', 'expect', 'expected a mapping, got "completed"'],
  ])('expect: %s', async (expectation, path, problem) => {
    expect(await pathAndProblem(`plugins:\n  - { id: a, tools: [x] }\nexpect: ${expectation}\n`)).toEqual([path, problem])
  })
})

describe('semantic errors', () => {
  it('reports a duplicate id exactly', async () => {
    const text = 'plugins:\n  - id: tool-fs\n    tools: [read]\n  - id: tool-fs\n    tools: [write]\nexpect: { outcome: completed }\n'
    expect(await lineOf(text)).toBe('x.yml: plugins[1].id: duplicate id "tool-fs" (ids are unique within a file)')
  })

  it('reserves the service-entry ids only with services: entries', async () => {
    const text = (services: string) => `services: ${services}\nplugins:\n  - { id: tools, tools: [x] }\nexpect: { outcome: completed }\n`
    expect(await lineOf(text('entries'))).toBe(
      'x.yml: plugins[0].id: id "tools" is reserved with services: entries (not one of llm, sessions, tools, system-prompt, agent-loop, app)',
    )
    const dir = await fixtureDir()
    await expect(loadScenario(await dir.write('ok.yml', text('root')))).resolves.toMatchObject({ services: 'root' })
  })

  it('rejects a file name that cannot be a default name', async () => {
    expect(await lineOf(minimal(), 'CI_Flake.yml')).toBe(
      'CI_Flake.yml: name: missing, and the file name "CI_Flake" is not a valid scenario name (set name: explicitly, matching [a-z0-9-]+)',
    )
    const dir = await fixtureDir()
    await expect(loadScenario(await dir.write('CI_Flake.yml', minimal('name: ci-flake\n')))).resolves.toMatchObject({ name: 'ci-flake' })
  })

  it('requires exactly one plugin kind', async () => {
    expect(await lineOf(entry('    tools: [x]\n    module: ./m.ts\n'))).toBe(
      'x.yml: plugins[0].module: module cannot be combined with tools (exactly one of tools, batches, module, listener per entry)',
    )
    expect(await lineOf(entry('    inject: [tools]\n'))).toBe(
      'x.yml: plugins[0]: missing a plugin kind (exactly one of tools, batches, module, listener per entry; a fault entry may have none)',
    )
    expect(await pathAndProblem(entry('    batches: [[a]]\n    tools: [b]\n'))).toEqual(['plugins[0].tools', 'tools cannot be combined with batches'])
    expect(await pathAndProblem(entry('    listener: { reverse: true }\n    batches: [[a]]\n'))).toEqual(['plugins[0].batches', 'batches cannot be combined with listener'])
  })

  it.each([
    ['    tools: [x]\n    config: {}\n', 'plugins[0].config', 'config is only allowed with module'],
    ['    listener: { reverse: true }\n    when: { after: [a] }\n', 'plugins[0].when', 'when is only allowed with tools or batches'],
    ['    module: ./m.ts\n    fault: apply-throws\n', 'plugins[0].fault', 'a fault cannot be combined with module'],
    ['    fault: apply-hangs\n    listener: { reverse: true }\n', 'plugins[0].listener', 'a fault cannot be combined with listener'],
    ['    fault: leak\n', 'plugins[0].fault', 'a leak fault has no tools to leak'],
    ['    listener: {}\n', 'plugins[0].listener', 'expected at least one action, got {}'],
    ['    tools: [x]\n    when: {}\n', 'plugins[0].when', 'expected after or before, got {}'],
    ['    tools: [x]\n    weight: .inf\n', 'plugins[0].weight', 'expected a finite number, got .inf'],
    ['    tools: [x]\n    weight: .nan\n', 'plugins[0].weight', 'expected a finite number, got .nan'],
  ])('plugin entry rule: %j', async (body, path, problem) => {
    expect(await pathAndProblem(entry(body))).toEqual([path, problem])
  })

  it('checks when references against the other plugins of the file', async () => {
    const text = (ref: string) => `plugins:\n  - { id: a, tools: [x], when: { after: [b], before: [${ref}] } }\n  - { id: b, tools: [y] }\n  - { id: c, tools: [z] }\nexpect: { outcome: completed }\n`
    expect(await lineOf(text('ghost'))).toBe(
      'x.yml: plugins[0].when.before[0]: unknown plugin id "ghost" (ids of other plugins in this file: b, c)',
    )
    expect(await pathAndProblem(text('a'))).toEqual(['plugins[0].when.before[0]', '"a" is this plugin itself'])
    const dir = await fixtureDir()
    await expect(loadScenario(await dir.write('ok.yml', text('c')))).resolves.toBeDefined()
  })

  it('allows expect.error only with a failing outcome', async () => {
    const text = (outcome: string) => `plugins:\n  - { id: a, tools: [x] }\nexpect: { outcome: ${outcome}, error: boom }\n`
    expect(await lineOf(text('completed'))).toBe(
      'x.yml: expect.error: error is only checked for a failing outcome, not completed (remove error, or expect turn-error or load-error or crashed)',
    )
    expect((await pathAndProblem(text('stuck')))[0]).toBe('expect.error')
    const dir = await fixtureDir()
    await expect(loadScenario(await dir.write('t.yml', text('turn-error')))).resolves.toMatchObject({ expect: { error: 'boom' } })
    await expect(loadScenario(await dir.write('l.yml', text('load-error')))).resolves.toMatchObject({ expect: { error: 'boom' } })
  })
})

describe('document order', () => {
  const early = 'variant: nope\n'
  const late = 'turns: 0\n'

  it('reports the first problem in the document, whichever check finds it', async () => {
    expect((await pathAndProblem(minimal(early + late)))[0]).toBe('variant')
    expect((await pathAndProblem(minimal(late + early)))[0]).toBe('turns')
  })

  it('orders semantic and structural problems together', async () => {
    const duplicate = '  - { id: a, tools: [x] }\n  - { id: a, tools: [y] }\n'
    const badTools = '  - { id: b, tools: [] }\n'
    const dupFirst = `plugins:\n${duplicate}${badTools}expect: { outcome: completed }\n`
    const badFirst = `plugins:\n${badTools}${duplicate}expect: { outcome: completed }\n`
    expect(await pathAndProblem(dupFirst)).toEqual(['plugins[1].id', 'duplicate id "a"'])
    expect(await pathAndProblem(badFirst)).toEqual(['plugins[0].tools', 'expected a non-empty list of tools, got []'])
  })

  it('reports problems inside an entry before what is missing from it', async () => {
    const text = 'plugins:\n  - tools: [""]\nexpect: { outcome: completed }\n'
    expect((await pathAndProblem(text))[0]).toBe('plugins[0].tools[0]')
  })

  it('places a later key after an earlier one, regardless of key kind', async () => {
    const text = 'expect: { outcome: completed, error: x }\nfoo: 1\nplugins:\n  - { id: a, tools: [x] }\n'
    expect((await pathAndProblem(text))[0]).toBe('expect.error')
  })
})

describe('module plugins', () => {
  async function withModule(source: string): Promise<{ dir: FixtureDir, file: string }> {
    const dir = await fixtureDir()
    await dir.write('plugins/m.ts', source)
    const file = await dir.write('x.yml', entry('    module: ./plugins/m.ts\n'))
    return { dir, file }
  }

  it('reports a missing module file', async () => {
    const dir = await fixtureDir()
    const line = (await failure(await dir.write('x.yml', entry('    module: ./plugins/gone.ts\n')))).line
    expect(line).toBe(
      `${dir.root}/x.yml: plugins[0].module: module file not found: "./plugins/gone.ts" resolves to ${dir.root}/plugins/gone.ts (a relative path, or an installed package specifier, resolved from the folder of the file that names it)`,
    )
  })

  it('loads a module whose import throws: that is the load error of every interleaving, not a bad file', async () => {
    const { file } = await withModule('throw new Error("cannot start:\\nsecond line")\nexport default () => {}\n')
    const [plugin] = (await loadScenario(file)).plugins
    expect(plugin?.kind === 'module' && plugin.outcome).toEqual({ kind: 'failed', error: 'importing "./plugins/m.ts" failed: Error: cannot start:' })
  })

  it('reports a module that exports no plugin: no default export and no apply', async () => {
    const { dir, file } = await withModule('export const name = "m"\n')
    expect((await failure(file)).line).toBe(
      `${dir.root}/x.yml: plugins[0].module: "./plugins/m.ts" exports no plugin: no default export, and no apply among its exports (it exports name) (a module whose default export, or whose namespace of named exports, is a cordis plugin: a function, a class, or an object with apply)`,
    )
  })

  it.each([
    ['42', 'got 42'],
    ['{ name: "x" }', 'got {name: "x"}'],
    ['undefined', 'got undefined'],
  ])('reports a default export that is not a plugin: %s', async (value, got) => {
    const { file } = await withModule(`export default ${value}\n`)
    const error = await failure(file)
    expect(error.path).toBe('plugins[0].module')
    expect(error.problem).toBe(`the default export of "./plugins/m.ts" is not a cordis plugin, ${got}`)
  })

  it('imports nothing when an earlier check fails', async () => {
    const dir = await fixtureDir()
    const marker = join(dir.root, 'imported.txt')
    await dir.write('plugins/m.ts', `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(marker)}, 'yes')\nexport default () => {}\n`)
    const body = 'plugins:\n  - { id: a, module: ./plugins/m.ts }\nexpect: { outcome: '
    const broken = await dir.write('broken.yml', `${body}finished }\n`)
    expect((await failure(broken)).path).toBe('expect.outcome')
    expect(existsSync(marker)).toBe(false)
    await loadScenario(await dir.write('fixed.yml', `${body}completed }\n`))
    expect(existsSync(marker)).toBe(true)
  })

  it('stops at the first failing module in file order', async () => {
    const dir = await fixtureDir()
    const marker = join(dir.root, 'second.txt')
    await dir.write('first.ts', 'export default 1\n')
    await dir.write('second.ts', `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(marker)}, 'yes')\nexport default () => {}\n`)
    const file = await dir.write('x.yml', 'plugins:\n  - { id: a, module: ./first.ts }\n  - { id: b, module: ./second.ts }\nexpect: { outcome: completed }\n')
    expect((await failure(file)).path).toBe('plugins[0].module')
    expect(existsSync(marker)).toBe(false)
  })
})

describe('applications, environments and snapshots', () => {
  const cordis = '- id: tool\n  name: cordis:group\n  config: []\n'

  it.each([
    ['app: entries without the dsh target', 'app: entries\nentries: ./cordis.yml\nexpect: { outcome: completed }\n', 'app', 'app: entries runs the application a cordis.yml mounts, and only the dsh target has one'],
    ['app: entries with plugins', 'app: entries\ntarget: dsh\nplugins:\n  - { id: a, tools: [a] }\nexpect: { outcome: completed }\n', 'app', 'app: entries runs the application of a cordis.yml, and this file lists plugins'],
    ['a snapshot without the application', 'target: dsh\napp: none\nentries: ./cordis.yml\nsnapshot: ./snap\nexpect: { outcome: completed }\n', 'snapshot', 'a dsh snapshot pins what an application shows its model'],
    ['expect.snapshot without a snapshot', `${minimal().replace('outcome: completed', 'outcome: completed\n  snapshot: holds')}`, 'expect.snapshot', 'there is no snapshot to hold'],
    ['an env name that is no variable name', `env: { 'not a name': x }\n${minimal()}`, 'env["not a name"]', '"not a name" is not a variable name'],
    ['an env variable the isolation sets', `env: { HOME: /root }\n${minimal()}`, 'env.HOME', 'HOME is set by loadrace for every interleaving (its own temporary folder)'],
    ['an env value that is not a string', `env: { COUNT: 3 }\n${minimal()}`, 'env', 'expected a mapping of variable names to strings, got {COUNT: 3}'],
    ['a scripted model without the application', `model: { replaces: llm, providers: [p], models: [m] }\n${minimal()}`, 'model', 'a scripted model stands in for an application\'s live adapter entry'],
    ['a scripted model serving no route', 'target: dsh\napp: entries\nentries: ./cordis.yml\nmodel: { replaces: tool, providers: [], models: [m] }\nexpect: { outcome: completed }\n', 'model.providers', 'the scripted model needs the routes it serves'],
    ['a scripted model in place of an entry the file does not have', 'target: dsh\napp: entries\nentries: ./cordis.yml\nmodel: { replaces: llm-deepseek, providers: [p], models: [m] }\nexpect: { outcome: completed }\n', 'model.replaces', 'unknown entry "llm-deepseek"'],
    ['a scripted model in place of an entry that imports nothing', 'target: dsh\napp: entries\nentries: ./cordis.yml\nmodel: { replaces: tool, providers: [p], models: [m] }\nexpect: { outcome: completed }\n', 'model.replaces', 'entry "tool" imports no module'],
    ['an unknown snapshot status', `target: dsh\napp: entries\nentries: ./cordis.yml\nsnapshot: ./snap\nexpect: { outcome: completed, snapshot: flaky }\n`, 'expect.snapshot', 'unknown snapshot status "flaky"'],
    ['pinned files without a snapshot', `pinned: { systemPrompt: ./p.md, toolSchemas: ./t.json }\n${minimal()}`, 'pinned', 'there is no snapshot for the pinned files to judge'],
    ['pinned files with an unknown role', `target: dsh\napp: entries\nentries: ./cordis.yml\nsnapshot: ./snap\npinned: { systemPrompt: ./p.md, toolSchemas: ./t.json, role: member }\nexpect: { outcome: completed }\n`, 'pinned.role', 'unknown pin role "member"'],
    ['pinned files without the tool schemas', `target: dsh\napp: entries\nentries: ./cordis.yml\nsnapshot: ./snap\npinned: { systemPrompt: ./p.md }\nexpect: { outcome: completed }\n`, 'pinned.toolSchemas', 'required key is missing'],
    ['a requirement of nothing', `requires: {}\n${minimal()}`, 'requires', 'expected a command or a platform, got {}'],
    ['a required command with a folder', `requires: { commands: [/usr/bin/pwsh] }\n${minimal()}`, 'requires.commands[0]', 'expected a command name, got "/usr/bin/pwsh"'],
    ['an unknown process mode', `process: new\n${minimal()}`, 'process', 'unknown process mode "new"'],
    ['an unknown required platform', `requires: { platforms: [linx] }\n${minimal()}`, 'requires.platforms[0]', 'unknown platform "linx"; did you mean "linux"?'],
  ])('%s is one line at its field', async (_what, text, path, problem) => {
    const dir = await fixtureDir()
    await dir.write('cordis.yml', cordis)
    const error = await failure(await dir.write('x.yml', text))
    expect(error.path).toBe(path)
    expect(error.problem).toBe(problem)
  })

  it('a snapshot folder that is missing, or pins no header, is one line at snapshot naming what is missing', async () => {
    const dir = await fixtureDir()
    await dir.write('cordis.yml', cordis)
    await dir.write('snap/input.json', '{ "steps": [] }')
    await dir.write('snap/session.jsonl', '{}\n')
    const body = 'target: dsh\napp: entries\nentries: ./cordis.yml\nsnapshot: SNAP\nexpect: { outcome: completed }\n'
    const missing = await failure(await dir.write('missing.yml', body.replace('SNAP', './nowhere')))
    expect([missing.path, missing.problem]).toEqual(['snapshot', `no snapshot folder at ${join(dir.root, 'nowhere')}`])
    const unpinned = await failure(await dir.write('unpinned.yml', body.replace('SNAP', './snap')))
    expect(unpinned.path).toBe('snapshot')
    expect(unpinned.problem).toBe(`${join(dir.root, 'snap')} has no tool-schemas.expected.json (the pinned tool schemas: this snapshot pins no header)`)
    expect(unpinned.allowed).toMatch(/^a dsh snapshot folder that pins a header/)
  })

  it('a snapshot judged by its header class\'s pin loads with the pinned files, and a pinned file that is missing is one line at its field', async () => {
    const dir = await fixtureDir()
    await dir.write('cordis.yml', cordis)
    await dir.write('snap/input.json', '{ "steps": [] }')
    await dir.write('snap/session.jsonl', '{}\n')
    await dir.write('pin/system-prompt.expected.md', 'p\n')
    await dir.write('pin/tool-schemas.expected.json', '{}\n')
    const body = 'target: dsh\napp: entries\nentries: ./cordis.yml\nsnapshot: ./snap\npinned: { systemPrompt: ./pin/system-prompt.expected.md, toolSchemas: TOOLS }\nrequires: { commands: [pwsh], platforms: [posix] }\nexpect: { outcome: completed }\n'
    const scenario = await loadScenario(await dir.write('member.yml', body.replace('TOOLS', './pin/tool-schemas.expected.json')))
    expect(scenario.pinned).toEqual({ role: 'classmate', systemPrompt: join(dir.root, 'pin/system-prompt.expected.md'), toolSchemas: join(dir.root, 'pin/tool-schemas.expected.json') })
    expect(scenario.requires).toEqual({ commands: ['pwsh'], platforms: ['posix'] })
    const missing = await failure(await dir.write('missing.yml', body.replace('TOOLS', './pin/gone.json')))
    expect([missing.path, missing.problem]).toEqual(['pinned.toolSchemas', `no such file: ${join(dir.root, 'pin/gone.json')}`])
    expect(missing.allowed).toMatch(/tool-schemas\.expected\.json of the snapshot's header class's pin/)
  })
})
