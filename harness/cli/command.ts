import type { CommandSpec, ParsedArgs } from './args.ts'
import type { Env } from './environment.ts'

/** Somewhere to write text: stdout or stderr. */
export interface TextWriter {
  write(text: string): unknown
  /** True for a terminal (progress is drawn only there). */
  isTTY?: boolean
}

/** What a command talks to. */
export interface Cli {
  stdout: TextWriter
  stderr: TextWriter
  env: Env
}

/** One `loadrace` command: its options and what it does; resolves to the exit code. */
export interface Command {
  spec: CommandSpec
  run(args: ParsedArgs, cli: Cli): Promise<number>
}
