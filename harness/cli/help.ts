import type { CommandSpec, OptionSpec } from './args.ts'
import { EXIT } from './usage-error.ts'

/** Two aligned columns, indented by two spaces. */
function columns(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd())
}

function optionRow(option: OptionSpec): [string, string] {
  const long = option.short === undefined ? `--${option.name}` : `-${option.short}, --${option.name}`
  const left = option.value === undefined ? long : `${long} ${option.value}`
  const right = option.default === undefined ? option.help : `${option.help} (default: ${option.default})`
  return [left, option.variable === undefined ? right : `${right} [${option.variable}]`]
}

/**
 * The exit codes of every command, one table: every help page ends with it,
 * and the README's "Exit codes" table says the same, row for row.
 */
export const EXIT_CODE_ROWS: readonly (readonly [string, string])[] = [
  [String(EXIT.ok), 'success: every scenario met its expectation (sweep, merge), every test holds or is skipped (test, and the merge of its shards), every cell its expected verdict (matrix), the targets agree (diff-targets), the replay ran (with two tokens: to the same bytes; test --order: the test passed)'],
  [String(EXIT.failed), 'a finding: a scenario failed, a test is pins-one, flaky or fails (test --order: the test failed), a cell mismatched, the targets differ, two replays differ; or nothing ran or nothing was compared (every scenario skipped); or the run failed'],
  [String(EXIT.usage), 'bad input: a usage error, a malformed scenario file, a plugin module that cannot be loaded, a replay token that cannot be replayed; one line on stderr, nothing written'],
  [String(EXIT.internal), 'internal error: judging a scenario failed inside loadrace (verdict error), or loadrace failed to hold a timer, clock, process or socket it controls (verdict harness-fault: never a verdict about the system); the other scenarios and every report file were written'],
  [String(EXIT.unjudged), 'loadrace test judged nothing: the command was not found, ran no test, or started no process with a cordis loader (so no load order was controlled); the last line on stderr says which, and the report says nothing was judged'],
  [String(EXIT.interrupted), 'interrupted (SIGINT, Ctrl-C; how watch stops); a partial report was written (complete: false; loadrace test marks every verdict the unfinished runs could change partial)'],
  [String(EXIT.terminated), 'terminated (SIGTERM); a partial report was written (as for 130)'],
]

/** The exit codes, as every help page lists them. */
const EXIT_CODES_TEXT = ['Exit codes:', ...columns(EXIT_CODE_ROWS.map(([code, meaning]) => [code, meaning]))]

/** The `--help` text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`loadrace ${spec.name} — ${spec.summary}`, '', `Usage: loadrace ${spec.synopsis}`, '']
  for (const paragraph of spec.description) lines.push(paragraph, '')
  if (spec.operands.length > 0) lines.push('Arguments:', ...columns(spec.operands.map(operand => [operand.name, operand.help])), '')
  lines.push('Options:', ...columns([...spec.options.map(optionRow), ['-h, --help', 'show this help']]), '')
  lines.push(...EXIT_CODES_TEXT)
  return `${lines.join('\n')}\n`
}

/** The `--help` text of `loadrace` itself. */
export function programHelp(commands: readonly CommandSpec[]): string {
  const lines = [
    'loadrace — plugin-loader race simulator and determinism harness for cordis v4 agent systems',
    '',
    'Usage: loadrace <command> [arguments] [options]',
    '',
    'Commands:',
    ...columns(commands.map(spec => [spec.name, spec.summary])),
    '',
    'Options:',
    ...columns([['-h, --help', 'show this help'], ['--version', 'print the version']]),
    '',
    'Run `loadrace <command> --help` for the arguments and options of a command.',
    '',
    ...EXIT_CODES_TEXT,
  ]
  return `${lines.join('\n')}\n`
}
