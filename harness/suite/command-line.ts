import { basename } from 'node:path'

/**
 * The user's test command, and where loadrace reads its per-test results
 * from. loadrace adds a machine-readable reporter to a `vitest` command
 * (JSON) and to `node --test` (JUnit), reads a JUnit file the user names
 * (`--junit FILE`), and otherwise judges the command by its exit code, as one
 * test. It also knows how each kind reruns one test alone.
 */

/** How a command's per-test results are read. */
export type ResultSource =
  | { kind: 'vitest' }
  | { kind: 'node-test' }
  | { kind: 'junit', file: string }
  | { kind: 'exit-code' }

/** The command as given after `--`, and where its results come from. */
export interface TestCommand {
  readonly argv: readonly string[]
  readonly source: ResultSource
}

/** Whether an argument names vitest's command (`vitest`, `npx vitest`, `node …/vitest.mjs`). */
function isVitest(arg: string): boolean {
  return /^vitest(?:\.m?js|\.cmd)?$/.test(basename(arg))
}

/** Whether `argv` is `node … --test …`. */
function isNodeTest(argv: readonly string[]): boolean {
  return /^node(?:\.exe)?$/.test(basename(argv[0] ?? '')) && argv.includes('--test')
}

/** Reads how `argv` reports per test; `junit` is the file given with `--junit`, which wins. */
export function testCommand(argv: readonly string[], junit?: string): TestCommand {
  if (junit !== undefined) return { argv, source: { kind: 'junit', file: junit } }
  if (argv.some(isVitest)) return { argv, source: { kind: 'vitest' } }
  if (isNodeTest(argv)) return { argv, source: { kind: 'node-test' } }
  return { argv, source: { kind: 'exit-code' } }
}

/** A regular expression that matches exactly `names` (one name, or any one of several). */
function exactly(names: string | readonly string[]): string {
  const escaped = (typeof names === 'string' ? [names] : names).map(name => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return escaped.length === 1 ? `^${escaped[0]}$` : `^(?:${escaped.join('|')})$`
}

/**
 * The argument vector of one run: the command with the reporter loadrace
 * reads (writing to `resultFile`), narrowed to the test named `only` (or
 * the tests, of one file, it names) when given (a kind that cannot run one
 * test alone runs them all).
 */
export function runArgv(command: TestCommand, resultFile: string, only?: string | readonly string[], file?: string): string[] {
  const argv = only === undefined ? [...command.argv] : withoutNameFilters(command)
  switch (command.source.kind) {
    case 'vitest':
      if (only !== undefined && file !== undefined && file !== '') narrowToFile(argv, file)
      argv.push('--reporter=default', '--reporter=json', `--outputFile.json=${resultFile}`)
      if (only !== undefined) argv.push(`--testNamePattern=${exactly(only)}`)
      break
    case 'node-test': {
      const at = argv.indexOf('--test') + 1
      const extra = ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=junit', `--test-reporter-destination=${resultFile}`]
      if (only !== undefined) extra.push(`--test-name-pattern=${exactly(only)}`)
      argv.splice(at, 0, ...extra)
      break
    }
    case 'junit':
    case 'exit-code':
      break
  }
  return argv
}

/** vitest's options that take a value as the next argument (so that value is no file filter). */
const VITEST_VALUED = new Set(['-c', '--config', '-r', '--root', '--dir', '--project', '--reporter', '--outputFile', '--pool', '--shard',
  '--environment', '--mode', '--exclude', '--maxWorkers', '--minWorkers', '--testTimeout', '--hookTimeout', '--retry', '--bail', '--sequence.seed'])
/** vitest's subcommands: the first word after `vitest` that is one is kept. */
const VITEST_SUBCOMMANDS = new Set(['run', 'watch', 'dev', 'related', 'bench', 'list'])

/**
 * Replaces the file filters of a vitest command (its positional arguments
 * after `vitest` and its subcommand) with `file`, so a rerun alone collects
 * only the test's own file.
 */
function narrowToFile(argv: string[], file: string): void {
  const at = argv.findIndex(isVitest)
  if (at < 0) return
  const kept = argv.slice(0, at + 1)
  let subcommand = false
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg.startsWith('-')) {
      kept.push(arg)
      if (VITEST_VALUED.has(arg) && i + 1 < argv.length) kept.push(argv[++i] as string)
    } else if (!subcommand && kept.length === at + 1 && VITEST_SUBCOMMANDS.has(arg)) {
      subcommand = true
      kept.push(arg)
    }
  }
  argv.splice(0, argv.length, ...kept, file)
}

/** The options of each kind that filter tests by name: a rerun alone replaces them with its own. */
const NAME_FILTERS: Readonly<Record<ResultSource['kind'], readonly string[]>> = {
  'vitest': ['-t', '--testNamePattern', '--test-name-pattern'],
  'node-test': ['--test-name-pattern'],
  'junit': [],
  'exit-code': [],
}

/** The command without its own test-name filters (`-t PATTERN`, `--testNamePattern=PATTERN`, …). */
function withoutNameFilters(command: TestCommand): string[] {
  const filters = NAME_FILTERS[command.source.kind]
  const argv: string[] = []
  for (let i = 0; i < command.argv.length; i++) {
    const arg = command.argv[i] as string
    if (filters.includes(arg)) {
      i++
      continue
    }
    if (filters.some(filter => arg.startsWith(`${filter}=`))) continue
    argv.push(arg)
  }
  return argv
}

/** Whether this kind of command can run one test alone. */
export function runsOneTest(command: TestCommand): boolean {
  return command.source.kind === 'vitest' || command.source.kind === 'node-test'
}
