import { reportersFor } from '../report/reporters/index.ts'
import { testReportKind } from '../report/test/kind.ts'
import type { TestReport } from '../report/test-report.ts'
import { testCommand } from '../suite/command-line.ts'
import { runTestMode } from '../suite/test-mode.ts'
import { testRunStatus } from '../suite/test-report.ts'
import { defaultsOf, STRATEGY_NAMES } from '../sweep/settings.ts'
import { styleFor } from './colour.ts'
import type { CommandSpec } from './args.ts'
import type { Command } from './command.ts'
import { OPTIONS, readReporter, readSettings } from './options.ts'
import { EXIT, UsageError } from './usage-error.ts'

const defaults = defaultsOf('test')

const spec: CommandSpec = {
  name: 'test',
  summary: 'run your own test command under every load order, one verdict per test',
  synopsis: 'test [options] -- <command…>',
  description: [
    'Runs the command once unperturbed (the natural run), then once per schedule of the plan, with loadrace\'s preload in every Node process it starts (appended to NODE_OPTIONS): each cordis loader those processes boot releases its entries\' imports in the order the schedule gives its configuration (cordis.yml). The suite\'s own assertions judge: per test holds, pins-one, fails, skipped or flaky.',
    'Per-test results come from a JSON reporter loadrace adds to a vitest command, a JUnit reporter added to node --test, or the JUnit file --junit names; any other command is one test, judged by its exit code.',
    'With --order, runs the command once under the given orders (and --only one test alone): the replay a pins-one finding prints.',
    'Reports: every run replaces the report folder whole (written beside it, then moved in place), so no file of an earlier run is left there; progress goes to stderr as each run and rerun alone starts. On SIGINT/SIGTERM every command still running is ended with what it started, and the report of what ran is written with complete: false, the run it stopped in named and every verdict the unfinished runs could change marked partial; a second signal exits at once.',
    'Exit: 0 when every test holds or is skipped; 1 when any is pins-one, flaky or fails (a replay: when the test fails); 4 when nothing could be judged (the command was not found, ran no test, or booted no cordis loader), its last line on stderr saying which; 130/143 when interrupted.',
  ],
  operands: [{ name: 'command…', help: 'the test command and its arguments, after --' }],
  options: [
    { ...OPTIONS.strategy, default: defaults.strategy, help: `how to pick each configuration's load orders: ${STRATEGY_NAMES.join('|')}` },
    { ...OPTIONS.budget, default: String(defaults.budget), help: 'most schedules per configuration, a whole number ≥ 1 (each is one run of the command)' },
    OPTIONS.seed,
    OPTIONS.depth,
    { ...OPTIONS.strength, default: String(defaults.strength) },
    OPTIONS.reruns,
    OPTIONS.jobs,
    { ...OPTIONS.shard, help: 'run only the schedules i, i+n, … of the plan (after the natural run); combine the reports with loadrace merge' },
    OPTIONS.junit,
    OPTIONS.order,
    OPTIONS.only,
    { ...OPTIONS.report, default: defaults.report },
    OPTIONS.format,
    { ...OPTIONS.reporter, help: 'what stdout gets: default|json (json: report.json, and the test lines go to stderr)' },
  ],
  maxOperands: Infinity,
}

/** The exit code of a test run's report (or of the merge of its shards). */
export function testExitCode(report: TestReport): number {
  return { clean: EXIT.ok, findings: EXIT.failed, unjudged: EXIT.unjudged }[testRunStatus(report)]
}

/** `loadrace test`: parse, build the reporters, run, and map the report to an exit code. */
export const testModeCommand: Command = {
  spec,
  async run(args, cli) {
    const argv = args.operands
    if (argv.length === 0) throw new UsageError('missing the test command: give it after -- (for example: loadrace test -- npx vitest run)')
    const settings = readSettings(args, spec, cli)
    const reporter = readReporter(args)
    const style = styleFor(reporter === 'json' ? cli.stderr : cli.stdout, cli.env)
    const reporters = reportersFor({ ...cli, style, reporter, showOutput: false, dir: settings.report, formats: settings.format }, testReportKind)
    const result = await runTestMode({ command: testCommand(argv, settings.junit), settings, cwd: process.cwd(), env: cli.env, reporters })
    return result.signalExit ?? testExitCode(result.report)
  },
}
