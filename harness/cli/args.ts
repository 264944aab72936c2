import { didYouMean } from '../spelling/did-you-mean.ts'
import { UsageError } from './usage-error.ts'

/** One `--name [VALUE]` option of a command. */
export interface OptionSpec {
  /** The long name, without the dashes. */
  name: string
  /** A one-letter alias, without the dash (`-u` for `--update-goldens`). */
  short?: string
  /** The placeholder of its value, e.g. `N`; absent for a flag. */
  value?: string
  /** The default as the help shows it. */
  default?: string
  /** The environment variable that sets it when the command line does not (`LOADRACE_BUDGET`). */
  variable?: string
  /** What it does, one line. */
  help: string
  /** May be given more than once; every value is kept. */
  repeatable?: boolean
}

/** What a command accepts, and the text its `--help` is made from. */
export interface CommandSpec {
  name: string
  /** One line for the command list. */
  summary: string
  /** The synopsis after `loadrace`, e.g. `sweep [FILE|DIR…] [options]`. */
  synopsis: string
  /** Paragraphs after the synopsis. */
  description: string[]
  /** `{name, help}` of the positional arguments. */
  operands: { name: string, help: string }[]
  options: OptionSpec[]
  /** Most operands accepted (`Infinity`: any number). */
  maxOperands: number
}

/** A parsed command line: operands, option values by name, flags given. */
export interface ParsedArgs {
  operands: string[]
  /** Every value given per option, in order. */
  values: Map<string, string[]>
  flags: Set<string>
  /** `--help` or `-h` was given. */
  help: boolean
}

function optionNamed(spec: CommandSpec, name: string): OptionSpec {
  const option = spec.options.find(candidate => candidate.name === name)
  if (!option) {
    const known = [...spec.options.map(candidate => candidate.name), 'help']
    throw new UsageError(`unknown option --${name}${didYouMean(name, known, near => `--${near}`)} (see loadrace ${spec.name} --help)`)
  }
  return option
}

/** The option a one-letter alias such as `-u` stands for. */
function optionAliased(spec: CommandSpec, arg: string): OptionSpec {
  const option = spec.options.find(candidate => candidate.short !== undefined && `-${candidate.short}` === arg)
  if (!option) throw new UsageError(`unknown option ${arg} (see loadrace ${spec.name} --help)`)
  return option
}

/**
 * Parses the arguments after the command name. Options take `--name value`
 * or `--name=value`, and those with a one-letter alias also `-x value`; a
 * value may start with a single dash (so `--budget -1` is read, then
 * rejected as a budget); `--` ends the options. Throws a
 * `UsageError` for an unknown option, a missing value, a repeated option that
 * does not repeat, a value given to a flag, or too many operands.
 */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const parsed: ParsedArgs = { operands: [], values: new Map(), flags: new Set(), help: false }
  let optionsEnded = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      parsed.operands.push(arg)
      continue
    }
    if (arg === '--') {
      optionsEnded = true
      continue
    }
    if (arg === '-h' || arg === '--help') {
      parsed.help = true
      continue
    }
    const aliased = !arg.startsWith('--')
    const equals = aliased ? -1 : arg.indexOf('=')
    const option = aliased ? optionAliased(spec, arg) : optionNamed(spec, arg.slice(2, equals < 0 ? undefined : equals))
    const name = option.name
    if (option.value === undefined) {
      if (equals >= 0) throw new UsageError(`--${name}: takes no value, got "${arg.slice(equals + 1)}"`)
      parsed.flags.add(name)
      continue
    }
    let value: string
    if (equals >= 0) value = arg.slice(equals + 1)
    else {
      const next = argv[i + 1]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name}: expects a value ${option.value}`)
      value = next
      i++
    }
    const values = parsed.values.get(name) ?? []
    if (values.length > 0 && !option.repeatable) throw new UsageError(`--${name}: given more than once`)
    values.push(value)
    parsed.values.set(name, values)
  }
  if (!parsed.help && parsed.operands.length > spec.maxOperands) {
    const extra = parsed.operands[spec.maxOperands]!
    throw new UsageError(`unexpected argument "${extra}" (see loadrace ${spec.name} --help)`)
  }
  return parsed
}

/** The single value of an option, or undefined when it was not given. */
export function valueOf(args: ParsedArgs, name: string): string | undefined {
  return args.values.get(name)?.at(-1)
}
