import { targetNamed } from '../targets/registry.ts'
import type { TargetName } from '../targets/target.ts'

/**
 * The one table of declared differences between loadrace's reference and the
 * published dsh packages: values each system writes about itself, replaced by
 * a placeholder on both sides before their projections are compared. Nothing
 * else is normalised; every other byte of the compared parts must be equal.
 */

/** A declared difference: where it shows, each target's own value there, and why it is not a defect. */
export interface Normalisation {
  name: string
  /** Paths in the compared projection it applies to; `[*]` stands for every element of a list. */
  paths: readonly string[]
  /** Each target's value at those paths (what its definition says of itself). */
  value(target: TargetName): string
  /** `whole`: the value equals the target's; `prefix`: the value starts with it (the rest is compared). */
  match: 'whole' | 'prefix'
  /** What both sides' value (or prefix) becomes. */
  placeholder: string
  reason: string
}

/** Every declared difference, in the order they are applied. */
export const NORMALISATIONS: readonly Normalisation[] = [
  {
    name: 'identity text',
    paths: ['header.system', 'requests[*].system'],
    value: target => targetNamed(target).identity.text,
    match: 'prefix',
    placeholder: '<identity>',
    reason: 'the system prompt opens with the harness:identity section (order -100), one fixed sentence in which each '
      + 'system names itself; the reference does not claim to be dsh. The persona and every other section after it are compared.',
  },
  {
    name: 'model name',
    paths: ['header.config.model', 'requests[*].model', 'requests[*].messages[*].source.model'],
    value: target => targetNamed(target).identity.model,
    match: 'whole',
    placeholder: '<model>',
    reason: 'each target scripts its own mock model and names it: the reference composition\'s default model id is '
      + '"mock-model", the dsh target\'s adapter answers as "mock" (as dsh\'s own loop tests do). The provider route '
      + '("mock") is the same and is compared.',
  },
]

/** The values at `path` (a dotted path, `[*]` for every list element) inside `root`, each with its container and key, for replacing. */
function places(root: unknown, path: string): [Record<string | number, unknown>, string | number][] {
  let current: [Record<string | number, unknown>, string | number][] = [[{ root } as Record<string, unknown>, 'root']]
  for (const segment of path.split('.')) {
    const every = segment.endsWith('[*]')
    const key = every ? segment.slice(0, -3) : segment
    const next: [Record<string | number, unknown>, string | number][] = []
    for (const [container, at] of current) {
      const value = container[at]
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) continue
      const record = value as Record<string, unknown>
      if (!every) next.push([record, key])
      else if (Array.isArray(record[key])) (record[key] as unknown[]).forEach((_, index) => next.push([record[key] as Record<number, unknown>, index]))
    }
    current = next
  }
  return current
}

/** Applies every normalisation of `target` to `view` in place (`view` is a fresh copy the caller owns). */
export function normalise(view: unknown, target: TargetName): void {
  for (const normalisation of NORMALISATIONS) {
    const own = normalisation.value(target)
    for (const path of normalisation.paths) {
      for (const [container, key] of places(view, path)) {
        const value = container[key]
        if (typeof value !== 'string') continue
        if (normalisation.match === 'whole' ? value === own : value.startsWith(own)) {
          container[key] = normalisation.placeholder + value.slice(own.length)
        }
      }
    }
  }
}
