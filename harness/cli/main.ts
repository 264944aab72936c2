import { InputError, ScenarioErrors } from '../scenario/errors.ts'
import { VERSION } from '../package/version.ts'
import { didYouMean } from '../spelling/did-you-mean.ts'
import { parseArgs } from './args.ts'
import type { Cli, Command } from './command.ts'
import { commandHelp, programHelp } from './help.ts'
import { diffTargetsCommand } from './diff-targets-command.ts'
import { listCommand } from './list-command.ts'
import { matrixCommand } from './matrix-command.ts'
import { mergeCommand } from './merge-command.ts'
import { replayCommand } from './replay-command.ts'
import { snapshotsCommand } from './snapshots-command.ts'
import { sweepCommand } from './sweep-command.ts'
import { testModeCommand } from './test-command.ts'
import { watchCommand } from './watch-command.ts'
import { EXIT, UsageError } from './usage-error.ts'

/** Every command, in the order `loadrace --help` lists them. */
export const COMMANDS: readonly Command[] = [sweepCommand, testModeCommand, watchCommand, replayCommand, mergeCommand, listCommand, snapshotsCommand, matrixCommand, diffTargetsCommand]

/** The options of `loadrace` itself, before any command. */
const PROGRAM_OPTIONS: readonly string[] = ['--help', '-h', '--version']

/** This process's stdout, stderr and environment. */
export function processCli(): Cli {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env }
}

/** Writes what went wrong and returns the exit code for it: 2 for bad input, 1 for anything else. */
function reportError(error: unknown, command: string, cli: Cli): number {
  const prefix = command === '' ? 'loadrace: ' : `loadrace ${command}: `
  if (error instanceof ScenarioErrors) {
    // The loader's lines, exactly: each already names its file.
    cli.stderr.write(`${error.lines.join('\n')}\n`)
    return EXIT.usage
  }
  if (error instanceof InputError) {
    cli.stderr.write(error.lines.map(line => `${prefix}${line}\n`).join(''))
    return EXIT.usage
  }
  if (error instanceof UsageError) {
    cli.stderr.write(`${prefix}${error.message}\n`)
    return EXIT.usage
  }
  cli.stderr.write(`${prefix}error: ${error instanceof Error ? error.message : String(error)}\n`)
  return EXIT.failed
}

/**
 * Runs `loadrace` with `argv` (the arguments after the program name) and
 * resolves to its exit code. Never throws: every failure is written to
 * `cli.stderr` and mapped to an exit code.
 */
export async function main(argv: readonly string[], cli: Cli = processCli()): Promise<number> {
  const [name, ...rest] = argv
  try {
    if (name === undefined) throw new UsageError(`missing command (${COMMANDS.map(command => command.spec.name).join(', ')}); see loadrace --help`)
    if (name === '--help' || name === '-h' || name === 'help') {
      cli.stdout.write(programHelp(COMMANDS.map(command => command.spec)))
      return EXIT.ok
    }
    if (name === '--version') {
      cli.stdout.write(`loadrace ${VERSION}\n`)
      return EXIT.ok
    }
    const command = COMMANDS.find(candidate => candidate.spec.name === name)
    if (!command) {
      const option = name.startsWith('-')
      const near = option ? didYouMean(name, PROGRAM_OPTIONS, word => word) : didYouMean(name, COMMANDS.map(candidate => candidate.spec.name), word => word)
      throw new UsageError(`unknown ${option ? 'option' : 'command'} ${name}${near} (commands: ${COMMANDS.map(candidate => candidate.spec.name).join(', ')}; see loadrace --help)`)
    }
    const args = parseArgs(rest, command.spec)
    if (args.help) {
      cli.stdout.write(commandHelp(command.spec))
      return EXIT.ok
    }
    return await command.run(args, cli)
  } catch (error) {
    const known = COMMANDS.some(command => command.spec.name === name)
    return reportError(error, known ? name! : '', cli)
  }
}
