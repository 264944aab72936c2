/**
 * The system's crash is an outcome: `process.exit`, an exception thrown from
 * the system's callback, a rejection of its code nothing handles end that
 * interleaving with outcome `crashed`, named and attributed to the entry
 * whose code raised it — in process, on worker threads and on another host
 * alike — and the rest of the sweep is judged and reported. loadrace's own
 * failures stay `error`, exit 3.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../../../harness/cli/main.ts'
import type { Report } from '../../../harness/report/sweep-report.ts'
import { captured, inDir, listing, PAIR, readReport } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

interface Crashing {
  module: string
  /** The crash the plugin's definition implies (it is entry `bad`). */
  crash: Record<string, unknown>
  /** How the sweep says it. */
  said: string
}

const CRASHING: Record<string, Crashing> = {
  'calls process.exit(7) in apply': {
    module: 'export default { name: \'bad\', apply() { process.exit(7) } }\n',
    crash: { kind: 'exit', entry: 'bad', code: 7 },
    said: 'entry bad called process.exit(7)',
  },
  'throws from a setImmediate after apply returned': {
    module: 'export default { name: \'bad\', apply() { setImmediate(() => { throw new Error(\'boom after apply\') }) } }\n',
    crash: { kind: 'uncaught-exception', entry: 'bad', error: 'Error: boom after apply' },
    said: 'uncaught exception in entry bad: Error: boom after apply',
  },
  'leaves an unhandled rejection': {
    module: 'export default { name: \'bad\', apply() { Promise.reject(new TypeError(\'nobody handles this\')) } }\n',
    crash: { kind: 'unhandled-rejection', entry: 'bad', error: 'TypeError: nobody handles this' },
    said: 'unhandled rejection in entry bad: TypeError: nobody handles this',
  },
  'returns a rejecting promise from a plain-function apply (cordis drops it)': {
    module: 'export function apply() { return Promise.resolve().then(() => { throw new RangeError(\'dropped and rejected\') }) }\n',
    crash: { kind: 'unhandled-rejection', entry: 'bad', error: 'RangeError: dropped and rejected' },
    said: 'unhandled rejection in entry bad: RangeError: dropped and rejected',
  },
}

/** A scenario racing tool-a and the module plugin `bad`. */
function beside(expectBlock = '  outcome: completed\n'): string {
  return `name: bad-plugin\napp: none\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: bad\n    module: ./bad.mjs\nexpect:\n${expectBlock}`
}

interface Swept {
  root: string
  code: number
  stdout: string
  stderr: string
  report: Report
  files: string[]
}

/** Sweeps the scenario of `bad` beside the ordinary `pair`, in one sweep. */
async function sweepBoth(module: string, args: readonly string[], scenario = beside()): Promise<Swept> {
  const dir = await fixtureDir()
  await dir.write('bad.mjs', module)
  await dir.write('bad.yml', scenario)
  await dir.write('pair.yml', PAIR)
  const out = captured()
  const code = await inDir(dir.root, () => main(['sweep', 'bad.yml', 'pair.yml', '--report', 'r', '--goldens', 'g', ...args], out.cli))
  return { root: dir.root, code, stdout: out.stdout(), stderr: out.stderr(), report: await readReport(join(dir.root, 'r')), files: await listing(join(dir.root, 'r')) }
}

function entry(report: Report, name = 'bad-plugin') {
  return report.scenarios.find(scenario => scenario.name === name)!
}

/** `loadrace replay TOKEN --json` in `root`: the projection it prints. */
async function replayed(root: string, token: string): Promise<{ projection: { outcome: string, crash?: unknown } }> {
  const out = captured()
  expect(await inDir(root, () => main(['replay', token, '--scenarios', 'bad.yml', '--json'], out.cli))).toBe(0)
  return JSON.parse(out.stdout()) as { projection: { outcome: string, crash?: unknown } }
}

const escaped = (text: string) => text.replace(/[()[\]]/g, '\\$&')

const WHERE: [string, string[]][] = [
  ['in process', ['--workers', '1']],
  ['on worker threads', ['--workers', '2']],
  ['on Node 22 child processes', ['--workers', '2', '--host', 'node22']],
]

describe.each(WHERE)('a plugin that crashes the system, beside an ordinary scenario (%s)', (_, args) => {
  it.each(Object.entries(CRASHING))('%s: outcome crashed, named and replayable; the other scenario judged; every report written; exit 1', async (_kind, { module, crash, said }) => {
    const { root, code, stdout, report, files } = await sweepBoth(module, args)
    expect(files).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
    const bad = entry(report)
    expect(bad).toMatchObject({ verdict: 'deterministic', outcome: 'crashed', passed: false, distinctOutputs: 1 })
    expect(bad.error).toBeUndefined()
    expect(bad.problems).toEqual([
      expect.stringMatching(new RegExp(`^crash: ${escaped(said)} \\(2 of 2 interleavings, first bad-plugin@canonical[^:]*:[a-z,-]+\\)$`)),
      expect.stringMatching(/^expected outcome completed, got crashed \(2 of 2 interleavings, first bad-plugin@canonical[^:]*:[a-z,-]+\)$/),
    ])
    expect(entry(report, 'pair')).toMatchObject({ verdict: 'deterministic', passed: true })
    expect(stdout).toContain(`crash: ${said}`)
    expect(code).toBe(1)
    const { projection } = await replayed(root, bad.outputs[0]!.token)
    expect(projection.outcome).toBe('crashed')
    expect(projection.crash).toEqual(crash)
  })

  it('expect.outcome: crashed with expect.error expects it: the sweep passes, exit 0', async () => {
    const { module } = CRASHING['calls process.exit(7) in apply']!
    const passed = await sweepBoth(module, args, beside('  outcome: crashed\n  error: called process.exit(7)\n'))
    expect(entry(passed.report)).toMatchObject({ verdict: 'deterministic', outcome: 'crashed', passed: true, problems: [] })
    expect(passed.code).toBe(0)
    const other = await sweepBoth(module, args, beside('  outcome: crashed\n  error: process.exit(3)\n'))
    expect(entry(other.report).problems).toEqual([expect.stringMatching(/^expected an error containing "process.exit\(3\)", got \["entry bad called process.exit\(7\)"\] /)])
    expect(other.code).toBe(1)
  })

  it('a crash in some orders only is a divergence in the errors, blamed on the pair whose swap makes it', async () => {
    // It exits only when tool-a has not registered yet: when its provider comes second.
    const module = 'export default { name: \'bad\', inject: [\'tools\'], apply(ctx) { if (!ctx.tools.get(\'a\')) process.exit(3) } }\n'
    const { root, report } = await sweepBoth(module, args, beside('  outcome: completed\n  deterministic: false\n'))
    const bad = entry(report)
    expect(bad.verdict).toBe('divergent')
    expect(bad.divergence).toMatchObject({ part: 'errors', kind: 'content' })
    expect(bad.divergence!.blame.slice().sort()).toEqual(['bad', 'tool-a'])
    expect(bad.problems).toEqual([
      expect.stringMatching(/^crash: entry bad called process.exit\(3\) \(1 of 2 interleavings, first bad-plugin@canonical[^:]*:bad,tool-a\)$/),
      expect.stringMatching(/^expected outcome completed, got crashed \(1 of 2 interleavings, first bad-plugin@canonical[^:]*:bad,tool-a\)$/),
    ])
    const [before, after] = bad.divergence!.tokens
    const outcomes = [(await replayed(root, before)).projection.outcome, (await replayed(root, after)).projection.outcome]
    expect(outcomes.sort()).toEqual(['completed', 'crashed'])
  })

  it('a failure loadrace cannot attribute to the system (code outside its scope) stays loadrace\'s error: exit 3', async () => {
    // An async resource made when the module is imported, outside any interleaving: the immediate queued in it carries no scope of the system's.
    const module = 'import { AsyncResource } from \'node:async_hooks\'\nconst outside = new AsyncResource(\'outside-the-system\')\n'
      + 'export default { name: \'bad\', apply() { outside.runInAsyncScope(() => setImmediate(() => { throw new Error(\'thrown outside the system\') })) } }\n'
    const { code, report, stderr, files } = await sweepBoth(module, args)
    const bad = entry(report)
    expect(bad.verdict).toBe('error')
    expect(bad.error).toContain('thrown outside the system')
    expect(entry(report, 'pair')).toMatchObject({ verdict: 'deterministic', passed: true })
    expect(files).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md'])
    expect(stderr).toContain('loadrace: internal error in scenario bad-plugin:')
    expect(code).toBe(3)
  })

  it('an error the system handles with a listener of its own is no crash', async () => {
    const module = 'export default { name: \'bad\', apply() { process.on(\'uncaughtException\', () => {}); setImmediate(() => { throw new Error(\'handled by the system\') }) } }\n'
    const { code, report } = await sweepBoth(module, args)
    expect(entry(report)).toMatchObject({ verdict: 'deterministic', outcome: 'completed', passed: true })
    expect(code).toBe(0)
  })
})

describe('the same crash, wherever it runs', () => {
  it('gives the same bytes in process, on threads and on Node 22', async () => {
    const { module } = CRASHING['throws from a setImmediate after apply returned']!
    const hashes: string[][] = []
    for (const [, args] of WHERE) hashes.push(entry((await sweepBoth(module, args)).report).outputs.map(output => output.hash))
    expect(hashes[1]).toEqual(hashes[0])
    expect(hashes[2]).toEqual(hashes[0])
  })
})
