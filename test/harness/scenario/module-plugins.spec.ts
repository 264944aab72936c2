/**
 * Real plugin modules as the cordis loader takes them: package specifiers
 * resolved from the scenario's folder, the loader's own export unwrapping,
 * imports that throw as load errors, and one cordis instance.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { realpathSync } from 'node:fs'
import { mkdir, symlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { importFailureText, parseFailureIn } from '../../../harness/scenario/import-failure.ts'
import { sweepScenario } from '../../../harness/sweep/sweep.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { parseProjection, type Projection } from '../../../harness/projection/projection.ts'
import { parseToken } from '../../../harness/token.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const OPTIONS = { strategy: 'exhaustive' as const, budget: 720, seed: '0', workers: 1 }
const ROOT = resolve(import.meta.dirname, '../../..')

async function sweepFile(file: string): Promise<ScenarioReport> {
  return sweepScenario(await loadScenario(file), OPTIONS, { runner: inProcessRunner() })
}

/** The projection of the first output of a report (every output, for one that has one). */
async function projectionOf(file: string, report: ScenarioReport): Promise<Projection> {
  const runner = inProcessRunner()
  const scenario = await loadScenario(file)
  return parseProjection((await runner.runOne(scenario, parseToken(report.outputs[0]!.token).schedule)).json)
}

/** A reference tool plugin module written with the dsh convention: named name/inject/apply exports, no default. */
function namedExportPlugin(tool: string): string {
  return `export const name = 'named-${tool}'
export const inject = ['tools']
export function apply(ctx) {
  ctx.tools.register({ name: '${tool}', description: '${tool} tool', parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
}
`
}

/** A package `name` installed in `dir`'s node_modules, its files given relative to the package folder. */
async function installPackage(dir: FixtureDir, name: string, files: Record<string, string>): Promise<string> {
  const root = join(dir.root, 'node_modules', name)
  for (const [file, text] of Object.entries(files)) await dir.write(join('node_modules', name, file), text)
  return root
}

/** A folder whose node_modules/@deepseek-ai/cordis is loadrace's own (a symlink), as an npm project sharing one cordis has. */
async function sharingCordis(dir: FixtureDir): Promise<void> {
  await mkdir(join(dir.root, 'node_modules', '@deepseek-ai'), { recursive: true })
  await symlink(join(ROOT, 'node_modules/@deepseek-ai/cordis'), join(dir.root, 'node_modules/@deepseek-ai/cordis'), 'dir')
}

describe('module: package specifiers', () => {
  it('resolves a package and a subpath of its exports map from the scenario folder, and runs them', async () => {
    const dir = await fixtureDir()
    const root = await installPackage(dir, 'my-plugins', {
      'package.json': JSON.stringify({ name: 'my-plugins', type: 'module', exports: { '.': './main.mjs', './sub': './lib/sub.mjs' } }),
      'main.mjs': namedExportPlugin('alpha'),
      'lib/sub.mjs': namedExportPlugin('beta'),
    })
    const file = await dir.write('scenarios/s.yml', `app: none
plugins:
  - { id: main, module: my-plugins }
  - { id: sub, module: my-plugins/sub }
expect: { outcome: completed, tools: [alpha, beta] }
`)
    const scenario = await loadScenario(file)
    expect(scenario.plugins.map(plugin => plugin.kind === 'module' && plugin.path)).toEqual([join(root, 'main.mjs'), join(root, 'lib/sub.mjs')])
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.outputs.map(output => output.tools)).toEqual([['alpha', 'beta']])
  })

  it('resolves a published dsh tool plugin by its package name (named exports, no default)', async () => {
    const dir = await fixtureDir()
    await mkdir(join(dir.root, 'node_modules', '@deepseek-ai'), { recursive: true })
    await symlink(join(ROOT, 'node_modules/@deepseek-ai/dsh-tool-todo'), join(dir.root, 'node_modules/@deepseek-ai/dsh-tool-todo'), 'dir')
    const file = await dir.write('s.yml', `app: none
target: dsh
plugins:
  - { id: tool-todo, module: '@deepseek-ai/dsh-tool-todo', config: { allowParallelInProgress: false } }
expect: { outcome: completed, tools: [todo_write] }
`)
    const scenario = await loadScenario(file)
    const [todo] = scenario.plugins
    expect(todo?.kind === 'module' && todo.outcome.kind === 'namespace' && Object.keys(todo.outcome.namespace).sort()).toEqual(['Config', 'apply', 'inject', 'name'])
    const report = await sweepScenario(scenario, OPTIONS, { runner: inProcessRunner() })
    expect(report.problems).toEqual([])
    expect(report.outputs[0]?.tools).toEqual(['todo_write'])
  })

  it('says which package failed to resolve, from where, on one line', async () => {
    const dir = await fixtureDir()
    const file = await dir.write('s.yml', 'plugins:\n  - { id: a, module: not-installed-anywhere }\nexpect: { outcome: completed }\n')
    const error = await loadScenario(file).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioError)
    expect((error as ScenarioError).path).toBe('plugins[0].module')
    expect((error as ScenarioError).problem).toMatch(new RegExp(`^cannot resolve package "not-installed-anywhere" from ${dir.root}: Cannot find package 'not-installed-anywhere'`))
  })
})

describe('module: what the loader takes from the namespace', () => {
  it('loads a namespace of named name/inject/apply exports as the plugin (exports.default ?? exports)', async () => {
    const dir = await fixtureDir()
    await dir.write('named.mjs', namedExportPlugin('gamma'))
    const report = await sweepFile(await dir.write('s.yml', 'app: none\nplugins:\n  - { id: named, module: ./named.mjs }\n  - { id: other, tools: [delta] }\nexpect: { outcome: completed, tools: [delta, gamma] }\n'))
    expect(report.problems).toEqual([])
    expect(report.outputs.map(output => output.tools)).toEqual([['delta', 'gamma']])
  })

  it('takes the default export when there is one, even beside a named apply', async () => {
    const dir = await fixtureDir()
    await dir.write('both.mjs', `export function apply() { throw new Error('the namespace was applied') }
export default { name: 'default-one', inject: ['tools'], apply(ctx) { ctx.tools.register({ name: 'from_default', description: 'd', parameters: { type: 'object', properties: {} }, execute: () => 'ok' }) } }
`)
    const report = await sweepFile(await dir.write('s.yml', 'app: none\nplugins:\n  - { id: both, module: ./both.mjs }\nexpect: { outcome: completed, tools: [from_default] }\n'))
    expect(report.problems).toEqual([])
  })
})

describe('module: an import that throws is the load error of every interleaving', () => {
  it('boots the rest, reports outcome load-error with the same text everywhere, and names the entry inactive', async () => {
    const dir = await fixtureDir()
    await dir.write('throws.mjs', 'throw new Error("no database at import time")\n')
    const file = await dir.write('s.yml', `app: none
plugins:
  - { id: alpha, tools: [alpha] }
  - { id: broken, module: ./throws.mjs }
  - { id: beta, tools: [beta] }
expect:
  outcome: load-error
  error: 'importing "./throws.mjs" failed: Error: no database at import time'
  inactive: [broken]
`)
    const report = await sweepFile(file)
    expect(report.problems).toEqual([])
    expect(report.explored).toBe(6)
    expect(report.outcome).toBe('load-error')
    expect(report.distinctOutputs).toBe(1)
    const projection = await projectionOf(file, report)
    expect(projection.errors.load).toEqual(['importing "./throws.mjs" failed: Error: no database at import time'])
    expect(projection.inactive).toEqual([{ id: 'broken', reason: 'not-imported' }])
  })

  it.each([
    ['a .mjs module (Node\'s own parser)', 'bad.mjs', 'export const name = "bad"\nexport function apply() {\n  let x = ;\n}\n', 'SyntaxError: Unexpected token \';\' at plugins/bad.mjs:3:11'],
    ['a TypeScript module (through tsx and esbuild)', 'bad.ts', 'export const name: string = "bad"\nexport function apply(): void {\n  let x: = 3\n}\n', 'SyntaxError: Unexpected "=" at plugins/bad.ts:3:10'],
  ])('keeps file, line and column of a syntax error in %s', async (_kind, name, source, error) => {
    const dir = await fixtureDir()
    await dir.write(`plugins/${name}`, source)
    const [plugin] = (await loadScenario(await dir.write('s.yml', `plugins:\n  - { id: bad, module: ./plugins/${name} }\nexpect: { outcome: load-error }\n`))).plugins
    expect(plugin?.kind === 'module' && plugin.outcome).toEqual({ kind: 'failed', error: `importing "./plugins/${name}" failed: ${error}` })
  })

  it('names the module in the graph that holds the syntax error, not the one the entry names', async () => {
    const dir = await fixtureDir()
    await dir.write('helper.mjs', 'export const x = {\n')
    const text = await importFailureText('./entry.mjs', await dir.write('entry.mjs', 'import "./helper.mjs"\nexport default () => {}\n'), dir.root, Object.assign(new SyntaxError('Unexpected end of input'), { stack: 'SyntaxError: Unexpected end of input' }))
    expect(text).toBe('importing "./entry.mjs" failed: SyntaxError: Unexpected end of input at helper.mjs:2')
  })

  it('reads both parsers\' reports', () => {
    expect(parseFailureIn('Error: Transform failed with 1 error:\n/p/x.ts:7:4: ERROR: Expected ";" but found "y"\n    at …')).toEqual({ file: '/p/x.ts', line: 7, column: 5, message: 'SyntaxError: Expected ";" but found "y"' })
    expect(parseFailureIn('file:///p/x.mjs:2\n  a b\n    ^\n\nSyntaxError: Unexpected identifier \'b\'\n    at …')).toEqual({ file: '/p/x.mjs', line: 2, column: 5, message: 'SyntaxError: Unexpected identifier \'b\'' })
    expect(parseFailureIn('Error: something else entirely')).toBeUndefined()
  })
})

describe('module: one cordis instance', () => {
  it('rejects a plugin that resolves another copy of @deepseek-ai/cordis than its system, naming both files on one line', async () => {
    const dir = await fixtureDir()
    // The scenario's folder reaches no cordis (so it runs on loadrace's own); the plugin's folder reaches a second copy.
    const copy = join(dir.root, 'plugins/node_modules/@deepseek-ai/cordis')
    await dir.write('plugins/node_modules/@deepseek-ai/cordis/package.json', JSON.stringify({ name: '@deepseek-ai/cordis', version: '4.0.4', type: 'module', exports: { '.': './index.js' } }))
    await dir.write('plugins/node_modules/@deepseek-ai/cordis/index.js', 'export class Context {}\n')
    await dir.write('plugins/plugin.mjs', 'import { Context } from "@deepseek-ai/cordis"\nexport default { apply() { return Context } }\n')
    const file = await dir.write('s.yml', 'plugins:\n  - { id: copy, module: ./plugins/plugin.mjs }\nexpect: { outcome: completed }\n')
    const error = await loadScenario(file).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioError)
    const { line } = error as ScenarioError
    expect(line).not.toMatch(/\n/)
    const own = realpathSync(join(ROOT, 'node_modules/@deepseek-ai/cordis/lib/index.js'))
    expect(line).toContain(`${file}: plugins[0].module: "./plugins/plugin.mjs" resolves @deepseek-ai/cordis to ${realpathSync(join(copy, 'index.js'))}, but loadrace uses ${own}`)
  })

  it('rejects a project whose cordis has no loader and include beside it, naming the project and its cordis', async () => {
    const dir = await fixtureDir()
    await dir.write('package.json', JSON.stringify({ name: 'half-a-system', private: true }))
    await installPackage(dir, '@deepseek-ai/cordis', {
      'package.json': JSON.stringify({ name: '@deepseek-ai/cordis', version: '4.0.0', type: 'module', exports: { '.': './index.js' } }),
      'index.js': 'export class Context {}\n',
    })
    const file = await dir.write('s.yml', 'plugins:\n  - { id: tool-a, tools: [a] }\nexpect: { outcome: completed }\n')
    const error = await loadScenario(file).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(ScenarioError)
    expect((error as ScenarioError).line).toContain(`the project at ${realpathSync(dir.root)} has @deepseek-ai/cordis 4.0.0 (${realpathSync(join(dir.root, 'node_modules/@deepseek-ai/cordis'))}) but no @deepseek-ai/cordis-plugin-loader or @deepseek-ai/cordis-plugin-include beside it`)
  })

  it('accepts a plugin whose cordis is loadrace\'s own, reached through a symlink', async () => {
    const dir = await fixtureDir()
    await sharingCordis(dir)
    await dir.write('plugin.mjs', 'import { Context } from "@deepseek-ai/cordis"\nexport default { name: "shares", apply() { return Context } }\n')
    const scenario = await loadScenario(await dir.write('s.yml', 'plugins:\n  - { id: shares, module: ./plugin.mjs }\nexpect: { outcome: completed }\n'))
    expect(scenario.plugins[0]?.kind === 'module' && scenario.plugins[0].outcome.kind).toBe('namespace')
  })
})

