import { afterAll, describe, expect, it } from 'vitest'
import { relative } from 'node:path'
import { loadScenario, loadScenarios, findScenarioFiles } from '../../../harness/scenario/load.ts'
import { ScenarioErrors } from '../../../harness/scenario/errors.ts'
import { Loader } from '@deepseek-ai/cordis-plugin-loader'
import type { PluginSpec } from '../../../harness/scenario/scenario.ts'
import { fixtureDir, minimal, removeFixtureDirs } from '../../support/fixture-dirs.ts'
import { ownSystem } from '../../../harness/system/system.ts'

afterAll(removeFixtureDirs)

/** The plugin the real loader takes from a module entry's namespace (`exports.default ?? exports`). */
function unwrapped(spec: PluginSpec | undefined): unknown {
  if (spec?.kind !== 'module' || spec.outcome.kind !== 'namespace') throw new Error('expected an imported module plugin')
  return Loader.prototype.unwrapExports(spec.outcome.namespace)
}

const EMPTY_PARAMETERS = { type: 'object', properties: {} }

describe('loadScenario: normalisation', () => {
  it('fills every default and derives the name from the file name', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('ci-flake.yml', minimal())
    const scenario = await loadScenario(file)
    const { system, ...rest } = scenario
    // A fixture folder outside any project runs on loadrace's own system.
    expect(system).toBe(await ownSystem())
    expect(rest).toEqual({
      name: 'ci-flake',
      file,
      dir: dir.root,
      description: '',
      app: 'stdio-agent',
      config: {},
      base: {},
      variant: 'canonical',
      target: 'reference',
      turns: 1,
      invariant: false,
      loader: 'memory',
      services: 'root',
      env: {},
      plugins: [{
        kind: 'tools', id: 'alpha', inject: [],
        batches: [[{ name: 'alpha', description: 'alpha tool', parameters: EMPTY_PARAMETERS }]],
      }],
      expect: { outcome: 'completed', inactive: [], deterministic: true },
    })
    expect(Object.hasOwn(scenario, 'timeout')).toBe(false)
    expect(Object.hasOwn(scenario.config, 'toolOrder')).toBe(false)
  })

  it('keeps every explicit setting', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('x.yaml', `
name: explicit-one
description: a described race
app: acp-agent
config: { persona: terse, toolOrder: [zulu, <unlisted-tools>] }
variant: registry-sort
target: dsh
turns: 3
invariant: true
loader: include
services: entries
timeout: 2500
plugins:
  - id: alpha
    tools: [alpha]
    inject: [tools, llm]
    weight: -1.5
expect:
  outcome: load-error
  tools: [zulu, alpha]
  error: 'toolOrder lists'
  deterministic: false
`)
    const scenario = await loadScenario(file)
    expect(scenario).toMatchObject({
      name: 'explicit-one', description: 'a described race', app: 'acp-agent',
      config: { persona: 'terse', toolOrder: ['zulu', '<unlisted-tools>'] },
      variant: 'registry-sort', target: 'dsh', turns: 3, invariant: true, loader: 'include', services: 'entries',
      timeout: 2500,
      expect: { outcome: 'load-error', tools: ['zulu', 'alpha'], error: 'toolOrder lists', deterministic: false },
    })
    expect(scenario.plugins[0]).toMatchObject({ inject: ['tools', 'llm'], weight: -1.5 })
  })

  it('keeps an explicit empty toolOrder as [] (a load-error scenario), distinct from an omitted one', async () => {
    const dir = await fixtureDir()
    const empty = await loadScenario(await dir.write('empty.yml', minimal('config: { toolOrder: [] }\n')))
    const omitted = await loadScenario(await dir.write('omitted.yml', minimal('config: { persona: p }\n')))
    expect(empty.config).toEqual({ toolOrder: [] })
    expect(omitted.config).toEqual({ persona: 'p' })
    expect('toolOrder' in omitted.config).toBe(false)
  })

  it('accepts a toolOrder without the rest entry or with duplicates: the system judges it', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', minimal('config: { toolOrder: [a, a, ""] }\n')))
    expect(scenario.config.toolOrder).toEqual(['a', 'a', ''])
  })

  it('turns a tools list into one batch and completes tool specs', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('tools.yml', `
plugins:
  - id: tool-subagent
    tools:
      - task
      - { name: list_agents, description: Lists agents }
      - { name: spawn, parameters: { type: object, properties: { n: { type: integer } }, required: [n] } }
  - id: tool-fs
    batches: [[read], [write, edit]]
expect: { outcome: completed }
`)
    const [subagent, fs] = (await loadScenario(file)).plugins
    expect(subagent).toEqual({
      kind: 'tools', id: 'tool-subagent', inject: [],
      batches: [[
        { name: 'task', description: 'task tool', parameters: EMPTY_PARAMETERS },
        { name: 'list_agents', description: 'Lists agents', parameters: EMPTY_PARAMETERS },
        {
          name: 'spawn', description: 'spawn tool',
          parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        },
      ]],
    })
    expect(fs?.kind === 'tools' && fs.batches.map((batch) => batch.map((tool) => tool.name)))
      .toEqual([['read'], ['write', 'edit']])
  })

  it('gives every tool its own default parameters object', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', minimal().replace('tools: [alpha]', 'tools: [a, b]')))
    const plugin = scenario.plugins[0]
    if (plugin?.kind !== 'tools') throw new Error('expected a tools plugin')
    const [a, b] = plugin.batches[0] ?? []
    expect(a?.parameters).toEqual(EMPTY_PARAMETERS)
    expect(a?.parameters).not.toBe(b?.parameters)
  })

  it('normalises listener, when, and fault entries', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('kinds.yml', `
services: root
plugins:
  - id: tool-fs
    tools: [read]
  - id: prompt-extras
    listener: { append: [zz_extra] }
  - id: planted
    tools: [extra]
    when: { after: [tool-fs] }
  - id: broken
    fault: apply-throws
  - id: leaky
    tools: [leaked]
    fault: leak
  - id: llm
    tools: [ok]
expect: { outcome: completed }
`)
    const plugins = (await loadScenario(file)).plugins
    expect(plugins[1]).toEqual({
      kind: 'listener', id: 'prompt-extras', inject: [],
      listener: { prepend: [], append: ['zz_extra'], reverse: false, remove: [] },
    })
    expect(plugins[2]).toMatchObject({ kind: 'tools', when: { after: ['tool-fs'], before: [] } })
    expect(plugins[3]).toEqual({ kind: 'fault', id: 'broken', inject: [], fault: 'apply-throws' })
    expect(plugins[4]).toMatchObject({ kind: 'tools', fault: 'leak' })
    expect(plugins[5]).toMatchObject({ kind: 'tools', id: 'llm' })
  })

  it('allows anchors and aliases within the budget', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('alias.yml', `
plugins:
  - id: a
    tools: &shared [read, write]
  - id: b
    tools: *shared
expect: { outcome: completed, tools: [read, write] }
`)
    const [a, b] = (await loadScenario(file)).plugins
    expect(a?.kind === 'tools' && a.batches[0]?.map((tool) => tool.name)).toEqual(['read', 'write'])
    expect(b?.kind === 'tools' && b.batches[0]?.map((tool) => tool.name)).toEqual(['read', 'write'])
  })

  it('accepts core-schema tags', async () => {
    const dir = await fixtureDir()
    const scenario = await loadScenario(await dir.write('s.yml', minimal('description: !!str 12\n')))
    expect(scenario.description).toBe('12')
  })

  it('keeps the file path as given: relative stays relative', async () => {
    const dir = await fixtureDir()
    const absolute = await dir.write('rel.yml', minimal())
    const given = relative(process.cwd(), absolute)
    const scenario = await loadScenario(given)
    expect(scenario.file).toBe(given)
    expect(scenario.dir).toBe(dir.root)
  })
})

describe('loadScenario: module plugins', () => {
  it('imports the module relative to the scenario file and carries its default export', async () => {
    const dir = await fixtureDir()
    const modulePath = await dir.write('plugins/tool-todo.ts', `
export const name = 'tool-todo'
export default { name, apply() {} }
`)
    const file = await dir.write('scenarios/todo.yml', `
plugins:
  - id: tool-todo
    module: ../plugins/tool-todo.ts
    config: { limit: 3 }
    inject: [tools]
expect: { outcome: completed }
`)
    const [plugin] = (await loadScenario(file)).plugins
    if (plugin?.kind !== 'module') throw new Error('expected a module plugin')
    expect(plugin).toMatchObject({ id: 'tool-todo', module: '../plugins/tool-todo.ts', path: modulePath, config: { limit: 3 }, inject: ['tools'] })
    expect((unwrapped(plugin) as { name?: unknown }).name).toBe('tool-todo')
  })

  it('accepts function and class default exports and omits an absent config', async () => {
    const dir = await fixtureDir()
    await dir.write('fn.ts', 'export default function apply() {}\n')
    await dir.write('cls.ts', 'export default class Thing { constructor() {} }\n')
    const file = await dir.write('s.yml', `
plugins:
  - { id: fn, module: ./fn.ts }
  - { id: cls, module: ./cls.ts }
expect: { outcome: completed }
`)
    const plugins = (await loadScenario(file)).plugins
    expect(plugins.map((plugin) => typeof unwrapped(plugin))).toEqual(['function', 'function'])
    expect(plugins.map((plugin) => 'config' in plugin)).toEqual([false, false])
  })
})

describe('findScenarioFiles and loadScenarios', () => {
  async function tree() {
    const dir = await fixtureDir()
    await dir.write('scenarios/b.yml', minimal())
    await dir.write('scenarios/a.yaml', minimal())
    await dir.write('scenarios/nested/c.yml', minimal())
    await dir.write('scenarios/nested/plugin.ts', 'export default () => {}\n')
    await dir.write('scenarios/notes.md', '# not a scenario\n')
    await dir.write('scenarios/.hidden/d.yml', minimal())
    return dir
  }

  it('finds .yml/.yaml files recursively, sorted, under the path as given', async () => {
    const dir = await tree()
    const given = relative(process.cwd(), `${dir.root}/scenarios`)
    expect(await findScenarioFiles([given])).toEqual([
      `${given}/a.yaml`, `${given}/b.yml`, `${given}/nested/c.yml`,
    ])
  })

  it('merges files and directories without duplicates', async () => {
    const dir = await tree()
    const files = await findScenarioFiles([`${dir.root}/scenarios/nested/c.yml`, `${dir.root}/scenarios`])
    expect(files).toEqual([
      `${dir.root}/scenarios/a.yaml`, `${dir.root}/scenarios/b.yml`, `${dir.root}/scenarios/nested/c.yml`,
    ])
  })

  it('loads every scenario in path order', async () => {
    const dir = await tree()
    const scenarios = await loadScenarios([`${dir.root}/scenarios`])
    expect(scenarios.map((scenario) => scenario.name)).toEqual(['a', 'b', 'c'])
  })

  it('rejects two files with the same scenario name, naming both', async () => {
    const dir = await fixtureDir()
    const first = await dir.write('one/same.yml', minimal())
    const second = await dir.write('two/other.yml', minimal('name: same\n'))
    const error: unknown = await loadScenarios([dir.root]).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioErrors)
    expect((error as ScenarioErrors).lines).toEqual([
      `${second}: name: duplicate scenario name "same", also used by ${first} (scenario names are unique across the loaded files)`,
    ])
  })

  it('reports one line per malformed file and nothing for the valid ones', async () => {
    const dir = await fixtureDir()
    await dir.write('a.yml', minimal('turns: 0\n'))
    await dir.write('b.yml', minimal())
    await dir.write('c.yml', minimal('variant: nope\n'))
    const error: unknown = await loadScenarios([dir.root]).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioErrors)
    const lines = (error as ScenarioErrors).lines
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/\/a\.yml: turns: /)
    expect(lines[1]).toMatch(/\/c\.yml: variant: unknown variant "nope" /)
    expect((error as Error).message).toBe(lines.join('\n'))
  })
})
