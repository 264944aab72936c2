/**
 * A real cordis.yml as the scenario: `entries:` in a scenario, or the file
 * swept by name with defaults. Ids, config (`!!js` too), groups, includes and
 * their patches reach the loader exactly as written, through the real
 * `cordis:include` and `cordis:group`.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { mkdir, readFile, stat, symlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { loadScenario, loadScenarios } from '../../../harness/scenario/load.ts'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { entryLabel, labelOfEntry, markWithoutId } from '../../../harness/scenario/entry-labels.js'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { runInterleaving } from '../../../harness/runtime/interleaving.ts'
import { referenceTarget } from '../../../harness/targets/reference.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 720, seed: '0', workers: 1 }
const ROOT = resolve(import.meta.dirname, '../../..')

/** A reference tool plugin registering the tool its config names. */
const TOOL_PLUGIN = `export const name = 'config-tool'
export const inject = ['tools']
export function apply(ctx, config) {
  ctx.tools.register({ name: config.tool, description: 'a tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
}
`

const CORDIS_YML = `# an application's configuration
- id: alpha
  name: ./plugins/tool.mjs
  config:
    tool: !!js "'al' + 'pha'"
- id: grouped
  name: cordis:group
  group: true
  config:
    - id: beta
      name: ./plugins/tool.mjs
      config: { tool: beta }
- id: nested
  name: cordis:include
  config:
    path: ./nested.yml
    patches:
      - id: gamma
        config: { tool: gamma_patched }
      - insert:
          - id: delta
            name: ./plugins/tool.mjs
            config: { tool: delta }
- id: off
  name: ./plugins/tool.mjs
  disabled: true
  config: { tool: never }
`

async function application(dir: FixtureDir): Promise<string> {
  await dir.write('app/plugins/tool.mjs', TOOL_PLUGIN)
  await dir.write('app/nested.yml', '- id: gamma\n  name: ./plugins/tool.mjs\n  config: { tool: gamma }\n')
  return dir.write('app/cordis.yml', CORDIS_YML)
}

describe('entries: a cordis.yml in a scenario', () => {
  it('mounts the file as the loader reads it: !!js config, a group, an include with patches, a disabled entry', async () => {
    const dir = await fixtureDir()
    const cordisFile = await application(dir)
    const file = await dir.write('scenario.yml', `app: none
entries: ./app/cordis.yml
expect:
  outcome: completed
  tools: [alpha, beta, delta, gamma_patched]
  inactive: [off]
`)
    const scenario = await loadScenario(file)
    expect(scenario.loader).toBe('include')
    expect(scenario.entries).toEqual({ file: cordisFile, labels: ['alpha', 'grouped', 'beta', 'nested', 'nested.gamma', 'nested.delta', 'off'], initial: ['alpha'] })
    // Only entries that import a module are operations; the group, the include and the disabled entry are not.
    expect(scenario.plugins.map(plugin => plugin.id)).toEqual(['alpha', 'beta', 'nested.gamma', 'nested.delta'])
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.explored).toBe(24)
    expect(report.guarantee).toBe('exhaustive')
    expect(report.outputs.map(output => output.tools)).toEqual([['alpha', 'beta', 'delta', 'gamma_patched']])
  })

  it('takes a disabled entry as the configuration\'s choice, as dsh\'s boot does, and fails when a listed entry activates', async () => {
    const dir = await fixtureDir()
    await application(dir)
    const unlisted = await sweepScenario(await loadScenario(await dir.write('a.yml', 'app: none\nentries: ./app/cordis.yml\nexpect: { outcome: completed }\n')), OPTIONS, { runner: inProcessRunner() })
    expect(unlisted.problems).toEqual([])
    expect(unlisted.passed).toBe(true)
    const overlisted = await sweepScenario(await loadScenario(await dir.write('b.yml', 'app: none\nentries: ./app/cordis.yml\nexpect: { outcome: completed, inactive: [off, nested.gamma] }\n')), OPTIONS, { runner: inProcessRunner() })
    expect(overlisted.problems).toEqual([expect.stringMatching(/^expected entry nested.gamma to stay inactive, but it became active \(24 of 24/)])
  })

  it('names the operations of nested entries by their loader ids, and replays them', async () => {
    const dir = await fixtureDir()
    await application(dir)
    const scenario = await loadScenario(await dir.write('s.yml', 'app: none\nentries: ./app/cordis.yml\nexpect: { outcome: completed, inactive: [off] }\n'))
    const result = await runInterleaving(scenario, referenceTarget, ['nested.delta', 'beta', 'nested.gamma', 'alpha'])
    // The include's entries are requested once its file is read, after the top-level ones.
    expect([...result.schedule].sort()).toEqual(['alpha', 'beta', 'nested.delta', 'nested.gamma'])
    expect(result.projection.outcome).toBe('completed')
    expect(result.contributions.tools.map(tool => `${tool.name}:${tool.owner}`)).toEqual(['alpha:alpha', 'beta:beta', 'delta:nested.delta', 'gamma_patched:nested.gamma'])
  })

  it('never writes the file back, even when the loader would persist a change', async () => {
    const dir = await fixtureDir()
    await dir.write('app/quits.mjs', 'export default { name: "quits", apply(ctx) { queueMicrotask(() => ctx.fiber.dispose()) } }\n')
    const cordisFile = await dir.write('app/cordis.yml', '- id: quits\n  name: ./quits.mjs\n')
    const before = await stat(cordisFile)
    const scenario = await loadScenario(await dir.write('s.yml', 'app: none\nentries: ./app/cordis.yml\nexpect: { outcome: completed, inactive: [quits] }\n'))
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    await new Promise(done => setTimeout(done, 50))
    expect(await readFile(cordisFile, 'utf8')).toBe('- id: quits\n  name: ./quits.mjs\n')
    expect((await stat(cordisFile)).mtimeMs).toBe(before.mtimeMs)
  })
})

describe('a cordis.yml swept by name', () => {
  it('runs with defaults: the published dsh packages, every entry active, identical bytes', async () => {
    const dir = await fixtureDir()
    await mkdir(join(dir.root, 'node_modules/@deepseek-ai'), { recursive: true })
    await symlink(join(ROOT, 'node_modules/@deepseek-ai/dsh-tool-todo'), join(dir.root, 'node_modules/@deepseek-ai/dsh-tool-todo'), 'dir')
    const file = await dir.write('my-app/cordis.yml', "- id: todo\n  name: '@deepseek-ai/dsh-tool-todo'\n  config: { allowParallelInProgress: true }\n")
    const scenario = await loadScenario(file)
    expect(scenario).toMatchObject({ name: 'my-app-cordis', target: 'dsh', app: 'none', expect: { outcome: 'completed', deterministic: true, inactive: [] } })
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.outputs[0]?.tools).toEqual(['todo_write'])
  })

  it('is left to the scenario that names it when found in a searched folder, and swept when named', async () => {
    const dir = await fixtureDir()
    await application(dir)
    await dir.write('scenario.yml', 'app: none\nentries: ./app/cordis.yml\nexpect: { outcome: completed, inactive: [off] }\n')
    expect((await loadScenarios([dir.root])).map(scenario => scenario.name)).toEqual(['scenario'])
    expect((await loadScenarios([dir.root, join(dir.root, 'app/cordis.yml')])).map(scenario => scenario.name).sort()).toEqual(['app-cordis', 'scenario'])
  })
})

describe('a cordis.yml the loader could not read the same way', () => {
  async function lineFor(cordis: string, scenario = 'entries: ./app/cordis.yml\nexpect: { outcome: completed }\n', extra: Record<string, string> = {}): Promise<string> {
    const dir = await fixtureDir()
    await dir.write('app/plugins/tool.mjs', TOOL_PLUGIN)
    for (const [name, text] of Object.entries(extra)) await dir.write(name, text)
    await dir.write('app/cordis.yml', cordis)
    const file = await dir.write('s.yml', scenario)
    const error = await loadScenario(file).catch((thrown: unknown) => thrown)
    if (!(error instanceof ScenarioError)) throw new Error(`expected a ScenarioError, got ${String(error)}`)
    expect(error.line).not.toMatch(/\n/)
    return error.line.replaceAll(dir.root, '<dir>')
  }

  it('names the file and the entry field', async () => {
    expect(await lineFor('- name: ./plugins/tool.mjs\n')).toBe(
      '<dir>/app/cordis.yml: [0].id: expected an entry id, got null (a non-empty string: without one the loader makes up a random id, and loadrace names operations by id)',
    )
    expect(await lineFor('- id: a\n  name: ./plugins/missing.mjs\n')).toBe(
      '<dir>/app/cordis.yml: [0].name: module file not found: "./plugins/missing.mjs" resolves to <dir>/app/plugins/missing.mjs (a relative path, or an installed package specifier, resolved from the folder of the file that names it)',
    )
    expect(await lineFor('- id: inc\n  name: cordis:include\n  config: { path: ./gone.yml }\n')).toMatch(
      /^<dir>\/app\/cordis\.yml: \[0\]\.config\.path: cannot read the included file <dir>\/app\/gone\.yml \(ENOENT\)/,
    )
    expect(await lineFor('a: 1\n', 'entries: ./app/cordis.yml\nexpect: { outcome: completed }\n')).toBe(
      '<dir>/app/cordis.yml: (file): expected a list of loader entries, got {a: 1} (a cordis.yml: a top-level list of {id, name, config, …} entries)',
    )
  })

  it('rejects two entries whose labels collide', async () => {
    const cordis = '- id: a.b\n  name: ./plugins/tool.mjs\n- id: a\n  name: cordis:include\n  config: { path: ./inner.yml }\n'
    expect(await lineFor(cordis, undefined, { 'app/inner.yml': '- id: b\n  name: ./plugins/tool.mjs\n' })).toBe(
      '<dir>/app/inner.yml: [0].id: entry "a:b" is named a.b, as is entry "a.b" (entry ids unique within their tree, and distinct after loadrace\'s label mapping)',
    )
  })

  it('rejects expect.inactive ids that name no entry, and combinations the scenario cannot have', async () => {
    expect(await lineFor('- id: a\n  name: ./plugins/tool.mjs\n  config: { tool: a }\n', 'entries: ./app/cordis.yml\nexpect: { outcome: completed, inactive: [ghost] }\n')).toBe(
      '<dir>/s.yml: expect.inactive[0]: unknown entry "ghost" (entries of ./app/cordis.yml: a)',
    )
    expect(await lineFor('- id: a\n  name: ./plugins/tool.mjs\n', 'entries: ./app/cordis.yml\nloader: memory\nexpect: { outcome: completed }\n')).toBe(
      '<dir>/s.yml: loader: a cordis.yml named by entries is mounted through cordis:include (leave loader out, or set it to include)',
    )
    expect(await lineFor('- id: a\n  name: ./plugins/tool.mjs\n', 'plugins: [{ id: x, tools: [x] }]\nentries: ./app/cordis.yml\nexpect: { outcome: completed }\n')).toBe(
      '<dir>/s.yml: entries: entries cannot be combined with plugins (list plugins, or name a cordis.yml with entries)',
    )
  })
})

describe('entry labels', () => {
  it('map loader ids into the operation alphabet deterministically', () => {
    expect(entryLabel('tool-fs')).toBe('tool-fs')
    expect(entryLabel('include:tool-fs')).toBe('tool-fs')
    expect(entryLabel('include:base:tool-cordis')).toBe('base.tool-cordis')
    expect(entryLabel('include:my tool@2')).toBe('my_tool_2')
    expect(entryLabel('include:_hidden')).toBe('x_hidden')
  })

  it('name an entry without an id by its mounter and its plugin, and an entry with an id below one without by its own id, never by an id the loader made up', () => {
    type Entry = Parameters<typeof labelOfEntry>[0]
    const under = (parent: Entry | undefined) => ({ tree: { ctx: { fiber: { entry: parent } } } })
    const include = { id: '3fa9c1d2', options: { name: 'cordis:include' }, parent: under(undefined) }
    markWithoutId(include.options)
    const scoped = { id: '3fa9c1d2:77e0ab12', options: { name: '@deepseek-ai/dsh-tools' }, parent: under(include) }
    markWithoutId(scoped.options)
    const named = { id: '3fa9c1d2:names', options: { id: 'names', name: './names.mjs' }, parent: under(include) }
    const base = { id: 'include:base', options: { id: 'base', name: 'cordis:include' }, parent: under(undefined) }
    const below = { id: 'include:base:tool-fs', options: { id: 'tool-fs', name: 'x' }, parent: under(base) }
    expect(labelOfEntry(include)).toBe('cordis.include')
    expect(labelOfEntry(scoped)).toBe('cordis.include.deepseek-ai_dsh-tools')
    expect(labelOfEntry(named)).toBe('cordis.include.names')
    expect(labelOfEntry(below)).toBe('base.tool-fs')
  })
})
