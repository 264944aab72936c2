import { didYouMean } from '../spelling/did-you-mean.ts'
import { UsageError } from './usage-error.ts'

/**
 * Readers of option values. Each takes the option's name and the text given
 * and returns the typed value, or throws a one-line `UsageError` naming the
 * option, what it allows, and what it got.
 */

/** A whole number within `[min, max]`. */
export function wholeNumber(option: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`
    throw new UsageError(`--${option}: expected a whole number ${range}, got "${text}"`)
  }
  return value
}

/** One of a fixed set of names. */
export function oneOf<const T extends string>(option: string, text: string, allowed: readonly T[]): T {
  const found = allowed.find(name => name === text)
  if (found === undefined) throw new UsageError(`--${option}: expected one of ${allowed.join(', ')}, got "${text}"${didYouMean(text, allowed, name => name)}`)
  return found
}

/** Any non-empty text (a path, a seed). */
export function nonEmpty(option: string, text: string): string {
  if (text === '') throw new UsageError(`--${option}: expected a non-empty value`)
  return text
}

/** Runs an engine parser whose errors are one line, turning them into a `UsageError` for `option`. */
export function parsedBy<T>(option: string, text: string, parse: (text: string) => T): T {
  try {
    return parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new UsageError(message.startsWith(`--${option}`) ? message : `--${option}: ${message}`)
  }
}
