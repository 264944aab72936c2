import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { defaultsOf, formatShard, STRATEGY_NAMES } from '../sweep/settings.ts'
import { testCommand } from '../suite/command-line.ts'
import { findingLines, suiteReport, suiteSummary, writeSuiteReport } from '../suite/report.ts'
import { testKey } from '../suite/results.ts'
import type { RunPlace } from '../suite/suite-run.ts'
import { Interrupted, NothingJudged, replayOrder, testSuite } from '../suite/test-suite.ts'
import { isFinding, type TestFinding } from '../suite/verdict.ts'
import { valueOf, type CommandSpec } from './args.ts'
import type { Command } from './command.ts'
import { OPTIONS, readSettings } from './options.ts'
import { watchInterruptions } from './interrupt.ts'
import { nonEmpty, wholeNumber } from './values.ts'
import { EXIT, UsageError } from './usage-error.ts'

/** Lines of a finding's failure the terminal shows (the report has all of it). */
const TERMINAL_FAILURE_LINES = 40

/** How long the command's processes get to end after SIGTERM before SIGKILL. */
const INTERRUPT_GRACE_MS = 3000

/** `loadrace test`'s own defaults (in the table of every default): a schedule and its reverse, each side of a differing test rerun twice. */
const TEST_DEFAULTS = { ...defaultsOf('test'), reruns: 2, jobs: 1 } as const

/** The most reruns alone that may run side by side. */
const MAX_JOBS = 64

const spec: CommandSpec = {
  name: 'test',
  summary: 'run your own test command under every load order, one verdict per test',
  synopsis: 'test [options] -- <command…>',
  description: [
    'Runs the command once unperturbed (the reference run), then once per schedule of the plan, with loadrace\'s preload in every Node process it starts (appended to NODE_OPTIONS): each cordis loader those processes boot releases its entries\' imports in the order the schedule gives its configuration (cordis.yml). The suite\'s own assertions judge: per test holds, pins-one, fails, skipped or flaky.',
    'Per-test results come from a JSON reporter loadrace adds to a vitest command, a JUnit reporter added to node --test, or the JUnit file --junit names; any other command is one test, judged by its exit code.',
    'With --order, runs the command once under the given orders (and --only one test alone): the replay a pins-one finding prints.',
  ],
  operands: [{ name: 'command…', help: 'the test command and its arguments, after --' }],
  options: [
    { ...OPTIONS.strategy, default: TEST_DEFAULTS.strategy, help: `how to pick each configuration's load orders: ${STRATEGY_NAMES.join('|')}` },
    { ...OPTIONS.budget, default: String(TEST_DEFAULTS.budget), help: 'most schedules per configuration, a whole number ≥ 1 (each is one run of the command)' },
    OPTIONS.seed,
    OPTIONS.depth,
    { ...OPTIONS.strength, default: String(TEST_DEFAULTS.strength!) },
    { name: 'reruns', value: 'N', default: String(TEST_DEFAULTS.reruns), help: 'reruns alone of each side of a test whose result differs between runs, before it is called pins-one (another result there: flaky)' },
    { name: 'jobs', value: 'N', default: String(TEST_DEFAULTS.jobs), help: `how many differing tests are decided side by side, each by its own reruns alone (1 to ${MAX_JOBS}); the command's full runs never overlap. Above 1 only for a suite whose runs may overlap (no fixed port, file or database shared between two runs)` },
    { ...OPTIONS.shard, help: 'run only the schedules i, i+n, … of the plan (after the reference run); combine the reports with loadrace merge' },
    { name: 'junit', value: 'FILE', help: 'read per-test results from this JUnit file the command writes (relative to the directory it runs in)' },
    { name: 'order', value: 'CONFIG=E1,E2,…', repeatable: true, help: 'run the command once, the processes booting CONFIG releasing its entries in this order (repeatable): a replay' },
    { name: 'only', value: 'NAME', help: 'with --order: run only the test of this full name' },
    { ...OPTIONS.report, default: TEST_DEFAULTS.report! },
  ],
  maxOperands: Infinity,
}

function readOrders(values: readonly string[]): Record<string, string[]> {
  const rows: Record<string, string[]> = {}
  for (const value of values) {
    const at = value.lastIndexOf('=')
    if (at <= 0 || at === value.length - 1) throw new UsageError(`--order: expected CONFIG=ENTRY,ENTRY,… (the configuration's path, then its loader entries in order), got "${value}"`)
    rows[value.slice(0, at)] = value.slice(at + 1).split(',')
  }
  return rows
}

const MARK: Record<TestFinding['verdict'], string> = { 'holds': '✓', 'skipped': '-', 'pins-one': '✗', 'fails': '✗', 'flaky': '✗' }

export const testModeCommand: Command = {
  spec,
  async run(args, cli) {
    const argv = args.operands
    if (argv.length === 0) throw new UsageError('missing the test command: give it after -- (for example: loadrace test -- npx vitest run)')
    const junit = valueOf(args, 'junit')
    const command = testCommand(argv, junit === undefined ? undefined : nonEmpty('junit', junit))
    const settings = readSettings(args, spec, cli)
    const reportDir = resolve(settings.report)
    const runsFolder = join(reportDir, 'runs')
    // The command and every process it started share one process group: ended together, by SIGKILL if SIGTERM has not done it in a few seconds.
    const interruption = watchInterruptions(() => {
      for (const group of [...running].flatMap(child => child.pid === undefined ? [] : [child.pid])) {
        const end = (signal: NodeJS.Signals) => {
          try { process.kill(-group, signal) } catch { /* already gone */ }
        }
        end('SIGTERM')
        setTimeout(() => end('SIGKILL'), INTERRUPT_GRACE_MS).unref()
      }
    })
    const running = new Set<import('node:child_process').ChildProcess>()
    const place: RunPlace = {
      command, cwd: process.cwd(), folder: runsFolder, env: cli.env,
      onChild: (child, state) => { if (state === 'started') running.add(child); else running.delete(child) },
    }
    const orders = args.values.get('order') ?? []
    try {
      rmSync(runsFolder, { recursive: true, force: true })
      if (orders.length > 0) {
        const only = valueOf(args, 'only')
        const run = await replayOrder(place, readOrders(orders), only)
        const results = (run.results ?? []).filter(result => only === undefined || result.name === only)
        for (const result of results) cli.stdout.write(`${result.status === 'passed' ? '✓' : result.status === 'skipped' ? '-' : '✗'} ${result.status}  ${testKey(result)}\n${result.message ? `${result.message}\n` : ''}`)
        cli.stdout.write(`output: ${run.log}\n`)
        if (results.length === 0) {
          cli.stderr.write(`loadrace test: ${only === undefined ? 'the command reported no test' : `no test named ${JSON.stringify(only)} ran`}\n`)
          return EXIT.unjudged
        }
        return results.some(result => result.status === 'failed') ? EXIT.failed : EXIT.ok
      }
      if (valueOf(args, 'only') !== undefined) throw new UsageError('--only: needs --order (it narrows a replay to one test)')
      const { strategy, budget, seed, depth, shard } = settings
      // The test command's strength always has a default (2).
      const strength = settings.strength ?? TEST_DEFAULTS.strength!
      const reruns = wholeNumber('reruns', valueOf(args, 'reruns') ?? String(TEST_DEFAULTS.reruns), 1)
      const jobs = wholeNumber('jobs', valueOf(args, 'jobs') ?? String(TEST_DEFAULTS.jobs), 1, MAX_JOBS)
      if (jobs > 1 && junit !== undefined) throw new UsageError(`--jobs ${jobs}: not with --junit, whose one file two reruns side by side would both write; give --jobs 1 or let loadrace add its own reporter`)
      const outcome = await testSuite(place, {
        strategy, budget, seed, strength, reruns, jobs, ...shard ? { shard } : {},
        ...depth === undefined ? {} : { depth },
      }, {
        onRunStart: (name, index, total) => cli.stderr.write(index === 0 ? 'loadrace test: the reference run (unperturbed) …\n' : `loadrace test: ${name} (${index} of ${total - 1}) …\n`),
        onRunEnd: (run) => cli.stderr.write(`loadrace test: ${run.name} done in ${(run.durationMs / 1000).toFixed(1)} s (exit ${run.exitCode ?? run.signal}; ${run.results?.length ?? 0} tests, ${run.processes.length} processes with a cordis loader)\n`),
        onTest: finding => cli.stdout.write(`${MARK[finding.verdict]} ${finding.verdict}  ${testKey(finding)}\n`),
      }, interruption.signal)
      const report = suiteReport(outcome, command, place.cwd, { strategy, budget, seed, strength, reruns, ...shard ? { shard: formatShard(shard) } : {} })
      for (const test of report.tests.filter(candidate => isFinding(candidate.verdict))) {
        cli.stdout.write(`\n${MARK[test.verdict]} ${test.verdict}  ${testKey(test)}\n${findingLines(test).map(line => `    ${line}\n`).join('')}`)
        const failure = test.failure ?? test.message
        if (failure !== undefined) {
          const lines = failure.split('\n')
          cli.stdout.write(lines.slice(0, TERMINAL_FAILURE_LINES).map(line => `    ${line}\n`).join(''))
          if (lines.length > TERMINAL_FAILURE_LINES) cli.stdout.write(`    … ${lines.length - TERMINAL_FAILURE_LINES} more lines in report.md\n`)
        }
      }
      const written = await writeSuiteReport(reportDir, report)
      cli.stdout.write(suiteSummary(report, written))
      const code = interruption.exitCode()
      if (code !== undefined) return code
      return report.tests.some(test => isFinding(test.verdict)) ? EXIT.failed : EXIT.ok
    } catch (error) {
      if (error instanceof Interrupted) {
        cli.stderr.write('loadrace test: interrupted; no report was written\n')
        return interruption.exitCode() ?? EXIT.interrupted
      }
      if (error instanceof NothingJudged) {
        cli.stderr.write(`loadrace test: ${error.message}\n`)
        return interruption.exitCode() ?? EXIT.unjudged
      }
      throw error
    } finally {
      interruption.dispose()
    }
  },
}
