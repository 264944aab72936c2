import { reportersFor } from '../report/reporters/index.ts'
import { sweepReportKind } from '../report/sweep-kind.ts'
import { sweep } from '../sweep/sweep.ts'
import { styleFor } from './colour.ts'
import { NODE22_VARIABLE, node22InstallCommand } from '../sweep/settings.ts'
import type { Command } from './command.ts'
import { reportExitCode } from './exit-code.ts'
import { OPTIONS, readFilter, readReporter, readSettings } from './options.ts'
import { matching, scenariosFrom } from './scenarios.ts'
import { supervised } from './supervised-run.ts'

/** `loadrace sweep`: explore, judge, write the report, summarise. */
export const sweepCommand: Command = {
  spec: {
    name: 'sweep',
    summary: 'explore the interleavings of scenarios and judge them',
    synopsis: 'sweep [FILE|DIR…] [options]',
    description: [
      'Runs each scenario under many plugin import orders, groups the interleavings by the bytes the model would see, '
        + 'and checks the result against the scenario\'s expect: block and its golden. A divergence is minimised to one '
        + 'adjacent swap and blamed on the two plugins swapped. Each scenario\'s line is printed as soon as it is judged, '
        + 'a failure with its problems, blame, replay commands and diff.',
      'Hosts: with --hosts a,b every interleaving of the plan runs on each host (Node 22, a default locale, a time zone) '
        + 'and the projections are compared position by position; the same interleaving giving other bytes on another '
        + 'host is verdict host-dependent, checked before any order is blamed. Two hosts that resolve to the same Node, '
        + 'locale and time zone are refused. Without --host(s) a dsh scenario runs on Node 22 (dsh\'s own runtime) when it '
        + `is found, anything else in this process; each dsh scenario's line says which Node it ran on. Node 22 is `
        + `${NODE22_VARIABLE} when set, else the one installed beside the project by ${node22InstallCommand()} `
        + '(which leaves the project\'s own node as it is).',
      'Goldens: the canonical projection of every deterministic scenario is compared with <name>.json in the nearest '
        + 'goldens/ folder beside the scenario\'s folder or beside one of its ancestors (up to the folder holding '
        + 'package.json); when there is none, goldens/ beside the scenario\'s folder. --goldens DIR puts them all in DIR. '
        + 'A missing golden is written (and said), except under CI (CI set to anything but "", "false" or "0"), where it '
        + 'fails; under CI, goldens in those folders that no scenario there has a name for are obsolete and fail the sweep.',
      'Output: colour on a terminal (NO_COLOR turns it off, FORCE_COLOR on); a progress line on a terminal, else a '
        + 'heartbeat line on stderr every LOADRACE_HEARTBEAT_MS milliseconds (default 10000; 0: none); with '
        + 'GITHUB_ACTIONS=true an ::error annotation per failed scenario. What the system under test prints is captured '
        + 'per interleaving, never printed raw: a failed scenario shows it for the interleavings it names (--show-output: '
        + 'every scenario), report.json has all of it.',
      'Everything is validated (options, every scenario file) before anything is written. On SIGINT/SIGTERM the sweep '
        + 'stops, writes the report with complete: false, and exits 130/143; a second signal exits at once.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, cordis.yml files (swept with defaults on the dsh target), or folders searched recursively for scenario files (default: scenarios/)' }],
    options: [
      OPTIONS.filter, OPTIONS.bail, OPTIONS.strategy, OPTIONS.budget, OPTIONS.seed, OPTIONS.depth, OPTIONS.strength,
      OPTIONS.variant, OPTIONS.target, OPTIONS.host, OPTIONS.hosts, OPTIONS.shard, OPTIONS.workers, OPTIONS.timeout, OPTIONS.keepWorkdirs, OPTIONS.report, OPTIONS.format,
      OPTIONS.reporter, OPTIONS.showOutput, OPTIONS.updateGoldens, OPTIONS.goldens,
    ],
    maxOperands: Infinity,
  },
  async run(args, cli) {
    const settings = readSettings(args, sweepCommand.spec, cli)
    const filter = readFilter(args)
    const reporter = readReporter(args)
    const bail = args.flags.has(OPTIONS.bail.name)
    const showOutput = args.flags.has(OPTIONS.showOutput.name)
    // With --reporter json stdout carries report.json alone; the lines people read go to stderr.
    const style = styleFor(reporter === 'json' ? cli.stderr : cli.stdout, cli.env)
    return supervised(cli, settings, async ({ runner, runners, signal, interrupted, progressReporter }) => {
      const scenarios = matching(await scenariosFrom(args.operands), filter)
      // Interrupted before anything ran: nothing to report.
      if (signal.aborted) return interrupted()!
      const reporters = [
        progressReporter(scenario => scenario.name),
        ...reportersFor({ ...cli, style, reporter, showOutput, dir: settings.report, formats: settings.format }, sweepReportKind),
      ]
      // The settings hold the golden policy: where the goldens are, whether to write them anew, whether this is CI.
      const report = await sweep(scenarios, settings, { runner, runners, goldens: settings, signal, bail, reporters })
      return interrupted() ?? reportExitCode(report, cli.stderr)
    })
  },
}
