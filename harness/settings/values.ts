import { didYouMean } from '../spelling/did-you-mean.ts'
import { UsageError } from './usage-error.ts'

/**
 * Readers of setting values. Each takes where the text came from (`--budget`
 * on the command line, `LOADRACE_BUDGET` in the environment) and the text, and
 * returns the typed value, or throws a one-line `UsageError` naming that
 * source, what it allows, and what it got.
 */

/** A whole number within `[min, max]`. */
export function wholeNumber(source: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`
    throw new UsageError(`${source}: expected a whole number ${range}, got "${text}"`)
  }
  return value
}

/** One of a fixed set of names. */
export function oneOf<const T extends string>(source: string, text: string, allowed: readonly T[]): T {
  const found = allowed.find(name => name === text)
  if (found === undefined) throw new UsageError(`${source}: expected one of ${allowed.join(', ')}, got "${text}"${didYouMean(text, allowed, name => name)}`)
  return found
}

/** Any non-empty text (a path, a seed). */
export function nonEmpty(source: string, text: string): string {
  if (text === '') throw new UsageError(`${source}: expected a non-empty value`)
  return text
}

/** The words a yes-or-no variable may say. */
export const SWITCH_WORDS = { on: ['1', 'true', 'yes'], off: ['0', 'false', 'no'] } as const

/** A yes-or-no value: `1`, `true`, `yes` or `0`, `false`, `no` (any case). */
export function onOff(source: string, text: string): boolean {
  const word = text.trim().toLowerCase()
  if ((SWITCH_WORDS.on as readonly string[]).includes(word)) return true
  if ((SWITCH_WORDS.off as readonly string[]).includes(word)) return false
  throw new UsageError(`${source}: expected one of ${[...SWITCH_WORDS.on, ...SWITCH_WORDS.off].join(', ')}, got "${text}"`)
}

/**
 * Runs an engine parser whose errors are one line, turning them into a
 * `UsageError` for `source`. A parser's message that names its option
 * (`--shard: …`) is said of `source` instead.
 */
export function parsedBy<T>(source: string, text: string, parse: (text: string) => T): T {
  try {
    return parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (message.startsWith(`${source}`)) throw new UsageError(message)
    throw new UsageError(`${source}: ${message.replace(/^--[a-z-]+: /, '')}`)
  }
}
