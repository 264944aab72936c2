/**
 * Malformed command lines the usage spec (test/harness/cli/usage.spec.ts)
 * does not try yet: each exits 2 with one line naming the option, and writes
 * nothing.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../harness/cli/main.ts'
import { captured, exists, runCli } from '../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../support/fixture-dirs.ts'

let dir: FixtureDir

beforeAll(async () => {
  dir = await fixtureDir()
})

afterAll(removeFixtureDirs)

/** Arguments, and the option the one line must start with (after `loadrace <command>: `). */
const CASES: readonly (readonly [string[], string])[] = [
  [['sweep', '--budget', 'x'], '--budget: expected a whole number ≥ 1, got "x"'],
  [['sweep', '--budget', ' 5'], '--budget: '],
  [['sweep', '--seed'], '--seed: expects a value S'],
  [['sweep', '--seed', '--budget', '5'], '--seed: expects a value S'],
  [['sweep', '--shard', '1/0'], '--shard: '],
  [['sweep', '--shard', 'two'], '--shard: '],
  [['sweep', '--shard', '1/2/3'], '--shard: '],
  [['sweep', '--shard', '-1/2'], '--shard: '],
  [['sweep', '--shard', '1/2', '--shard', '2/2'], '--shard: given more than once'],
  [['sweep', '--timeout', '600001'], '--timeout: expected a whole number from 100 to 600000, got "600001"'],
  [['sweep', '--timeout', 'soon'], '--timeout: '],
  [['sweep', '--workers', '-1'], '--workers: '],
  [['sweep', '--workers', '1e3'], '--workers: '],
  [['sweep', '--report'], '--report: expects a value DIR'],
  [['sweep', '--report', ''], '--report: '],
  [['sweep', '--goldens', ''], '--goldens: '],
  [['sweep', '--format', 'json,xml'], '--format: unknown report format "xml"'],
  [['sweep', '--frobnicate=1'], 'unknown option --frobnicate'],
  [['replay', 'pair@canonical:a', '--timeout', '5'], '--timeout: '],
  [['replay', 'pair@canonical:a', '--json=yes'], '--json: takes no value'],
  [['merge', '--report', 'out', '--format', 'pdf', 'shards'], '--format: unknown report format "pdf"'],
  [['matrix', '--frobnicate'], 'unknown option --frobnicate'],
  [['diff-targets', '--budget', '0'], '--budget: '],
  [['list', '--variant', 'canonical'], 'unknown option --variant'],
]

describe('usage errors exit 2 with one line naming the option', () => {
  for (const [args, start] of CASES) {
    it(`loadrace ${args.map((arg) => (arg === '' || arg.includes(' ') ? JSON.stringify(arg) : arg)).join(' ')}`, async () => {
      const report = join(dir.root, 'never')
      // A sweep given no --report of its own gets one that must stay absent.
      const withReport = args[0] === 'sweep' && !args.includes('--report') ? [...args, '--report', report] : args
      const out = captured()
      expect(await main(withReport, out.cli)).toBe(2)
      expect(out.stderr()).toMatch(/^[^\n]+\n$/)
      expect(out.stderr().startsWith(`loadrace ${args[0]}: ${start}`), out.stderr()).toBe(true)
      expect(out.stdout()).toBe('')
      expect(await exists(report)).toBe(false)
    })
  }

  it('the spawned bin answers a missing value the same way, creating nothing', async () => {
    const run = await runCli(['sweep', '--seed'], { cwd: dir.root })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('loadrace sweep: --seed: expects a value S\n')
    expect(await exists(join(dir.root, 'reports'))).toBe(false)
  })
})
