import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ScenarioError } from '../../../harness/scenario/errors.ts'
import { loadScenario } from '../../../harness/scenario/load.ts'
import { headerProblem } from '../../../harness/judge/expectation.ts'
import { inProcessRunner } from '../../../harness/runners/runner.ts'
import { sweepScenario, type SweepRun, type SweepSettings } from '../../../harness/sweep/sweep.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

/** `expect.header` pins the header's tools (names, descriptions, whole schemas) in every interleaving. */

const settings: SweepSettings = { strategy: 'exhaustive', budget: 100, seed: '0', workers: 1 }
const run: SweepRun = { runner: inProcessRunner() }

const PLUGINS = `app: none
plugins:
  - id: tool-zulu
    tools: [{ name: zulu, description: last, parameters: { type: object, properties: { b: { type: string }, a: { type: string } } } }]
  - id: tool-alpha
    tools: [alpha]
`

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

async function load(name: string, expectBlock: string, plugins = PLUGINS) {
  return loadScenario(await dir.write(`${name}.yml`, `name: ${name}\n${plugins}expect:\n${expectBlock}`))
}

async function errorLine(name: string, expectBlock: string): Promise<string> {
  const error: unknown = await load(name, expectBlock).then(() => undefined, (thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(ScenarioError)
  return (error as ScenarioError).line
}

describe('expect.header in a scenario file', () => {
  it('takes an inline list of names and {name, description, parameters}', async () => {
    const scenario = await load('inline', '  outcome: completed\n  header: [alpha, { name: zulu, description: last }]\n')
    expect(scenario.expect.header).toEqual([{ name: 'alpha' }, { name: 'zulu', description: 'last' }])
  })

  it('takes a JSON file relative to the scenario file, holding the same list', async () => {
    await dir.write('headers/pinned.json', JSON.stringify(['alpha', { name: 'zulu', description: 'last', parameters: { type: 'object', properties: {} } }]))
    const scenario = await load('from-file', '  outcome: completed\n  header: ./headers/pinned.json\n')
    expect(scenario.expect.header).toEqual([{ name: 'alpha' }, { name: 'zulu', description: 'last', parameters: { type: 'object', properties: {} } }])
  })

  it('rejects a malformed value in one line naming the file, the field and what is allowed', async () => {
    await dir.write('headers/bad-name.json', '["alpha", {"name": 3}]')
    await dir.write('headers/broken.json', '[{"name": "alpha",]')
    await dir.write('headers/mapping.json', '{"name": "alpha"}')
    const file = (name: string) => `${dir.root}/${name}.yml`
    expect(await errorLine('e1', '  outcome: completed\n  header: ./headers/none.json\n'))
      .toBe(`${file('e1')}: expect.header: cannot read "./headers/none.json": no such file (an inline list of tools, or the path of a JSON file holding one, relative to the scenario file)`)
    expect(await errorLine('e2', '  outcome: completed\n  header: ./headers/bad-name.json\n'))
      .toBe(`${file('e2')}: expect.header: in "./headers/bad-name.json" at [1].name: expected a non-empty tool name, got 3 (a non-empty string)`)
    expect(await errorLine('e3', '  outcome: completed\n  header: ./headers/broken.json\n'))
      .toMatch(new RegExp(`^${file('e3')}: expect\\.header: "\\./headers/broken\\.json" is not JSON: .+ \\(a JSON file holding a list of tools, each a tool name or \\{name, description, parameters\\}\\)$`))
    expect(await errorLine('e4', '  outcome: completed\n  header: ./headers/mapping.json\n'))
      .toBe(`${file('e4')}: expect.header: in "./headers/mapping.json": expected a list of tools, got {name: "alpha"} (the header's tools in order, each a tool name, or {name, description, parameters} with the description and parameters the model must see)`)
    expect(await errorLine('e5', '  outcome: completed\n  header: [3]\n'))
      .toBe(`${file('e5')}: expect.header[0]: expected a tool name or {name, description, parameters}, got 3 (a tool name, or {name, description, parameters} with the description and parameters the model must see)`)
    expect(await errorLine('e6', '  outcome: completed\n  header: [{ name: alpha, colour: red }]\n'))
      .toBe(`${file('e6')}: expect.header[0].colour: unknown key "colour" (allowed keys: name, description, parameters)`)
    expect(await errorLine('e7', '  outcome: completed\n  tools: [alpha]\n  header: [alpha]\n'))
      .toBe(`${file('e7')}: expect.header: tools and header cannot be combined (header names the tools too: give one of them)`)
    expect(await errorLine('e8', '  outcome: turn-error\n  header: [alpha]\n'))
      .toBe(`${file('e8')}: expect.header: no request header is logged when the outcome is turn-error (remove header, or expect completed or load-error)`)
  })
})

describe('checking expect.header', () => {
  const header = { tools: [{ name: 'alpha', description: 'alpha tool', parameters: {} }, { name: 'zulu', description: 'last', parameters: { b: 1, a: 2 } }] }

  it('names the first tool that differs in name, description or parameters (key order included), or the count', () => {
    expect(headerProblem([{ name: 'alpha' }, { name: 'zulu', description: 'last', parameters: { b: 1, a: 2 } }], header)).toBeUndefined()
    expect(headerProblem([{ name: 'zulu' }, { name: 'alpha' }], header)).toBe('header tool 1: expected "zulu", got "alpha" (header [alpha, zulu])')
    expect(headerProblem([{ name: 'alpha' }, { name: 'zulu', description: 'first' }], header)).toBe('header tool 2 (zulu): expected description "first", got "last"')
    expect(headerProblem([{ name: 'alpha' }, { name: 'zulu', parameters: { a: 2, b: 1 } }], header))
      .toBe('header tool 2 (zulu): expected parameters {"a":2,"b":1}, got {"b":1,"a":2} (key order included)')
    expect(headerProblem([{ name: 'alpha' }], header)).toBe('expected a header of 1 tools [alpha], got 2 [alpha, zulu]')
    expect(headerProblem([], null)).toBe('expected a request header, but none was logged')
  })

  it('passes a sweep whose every interleaving carries the pinned header', async () => {
    const scenario = await load('pinned', `  outcome: completed
  header:
    - { name: alpha, description: alpha tool, parameters: { type: object, properties: {} } }
    - { name: zulu, description: last, parameters: { type: object, properties: { b: { type: string }, a: { type: string } } } }
`)
    const report = await sweepScenario(scenario, settings, run)
    expect(report).toMatchObject({ verdict: 'deterministic', explored: 2, passed: true, problems: [] })
  })

  it('fails a sweep whose header differs only in a description, or only in the key order of parameters', async () => {
    const description = await sweepScenario(await load('wrong-description', '  outcome: completed\n  header: [alpha, { name: zulu, description: first }]\n'), settings, run)
    expect(description.passed).toBe(false)
    expect(description.problems).toEqual([expect.stringMatching(/^header tool 2 \(zulu\): expected description "first", got "last" \(2 of 2 interleavings, first /)])
    const keyOrder = await sweepScenario(await load('wrong-key-order', '  outcome: completed\n  header: [alpha, { name: zulu, parameters: { type: object, properties: { a: { type: string }, b: { type: string } } } }]\n'), settings, run)
    expect(keyOrder.passed).toBe(false)
    expect(keyOrder.problems[0]).toContain('(key order included)')
  })

  it('is checked in every interleaving, also where the scenario expects a race', async () => {
    const race = await sweepScenario(await load('race', '  outcome: completed\n  deterministic: false\n  header: [alpha, zulu]\n', `variant: registration-order\n${PLUGINS}`), settings, run)
    expect(race.verdict).toBe('divergent')
    // One of the two interleavings registers zulu first: that output, and only that one, misses the pinned header.
    expect(race.problems).toEqual([expect.stringMatching(/^header tool 1: expected "alpha", got "zulu" \(header \[zulu, alpha\]\) \(1 of 2 interleavings, first race@registration-order:/)])
  })
})

describe('the bundled stable-sort scenario (dsh tool-order.spec 8.1/8)', () => {
  it('pins the descriptions of the two same-named tools in provider order, on the reference and on dsh', async () => {
    const scenario = await loadScenario('scenarios/shared-name-stable-sort.yml')
    expect(scenario.expect.header?.map(tool => tool.description)).toEqual(['anchor', 'bravo tool', 'first', 'second', undefined])
    for (const target of ['reference', 'dsh'] as const) {
      const report = await sweepScenario(scenario, { ...settings, target }, run)
      expect(report, target).toMatchObject({ verdict: 'deterministic', explored: 6, guarantee: 'exhaustive', passed: true, problems: [] })
    }
  })

  it('fails when the provider returns the two in the other order', async () => {
    const text = (await readFile('scenarios/shared-name-stable-sort.yml', 'utf8'))
      .replace('{ name: dup, description: first }', '{ name: dup, description: FIRST }')
      .replace('{ name: dup, description: second }', '{ name: dup, description: first }')
      .replace('{ name: dup, description: FIRST }', '{ name: dup, description: second }')
    const local = await fixtureDir()
    await local.write('plugins/tool-provider.ts', await readFile('scenarios/plugins/tool-provider.ts', 'utf8'))
    const report = await sweepScenario(await loadScenario(await local.write('swapped.yml', text)), settings, run)
    expect(report.passed).toBe(false)
    expect(report.problems).toEqual([expect.stringMatching(/^header tool 3 \(dup\): expected description "first", got "second" \(6 of 6 interleavings/)])
  })
})
