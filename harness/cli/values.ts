import { settingValues } from '../sweep/settings.ts'

/**
 * Readers of option values. Each takes the option's name (without its
 * dashes) and the text given and returns the typed value, or throws a
 * one-line `UsageError` naming the option, what it allows, and what it got.
 * They are the settings' own readers, said of `--option`.
 */

/** A whole number within `[min, max]`. */
export function wholeNumber(option: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return settingValues.wholeNumber(`--${option}`, text, min, max)
}

/** One of a fixed set of names. */
export function oneOf<const T extends string>(option: string, text: string, allowed: readonly T[]): T {
  return settingValues.oneOf(`--${option}`, text, allowed)
}

/** Any non-empty text (a path, a seed). */
export function nonEmpty(option: string, text: string): string {
  return settingValues.nonEmpty(`--${option}`, text)
}

/** Runs an engine parser whose errors are one line, turning them into a `UsageError` for `option`. */
export function parsedBy<T>(option: string, text: string, parse: (text: string) => T): T {
  return settingValues.parsedBy(`--${option}`, text, parse)
}
