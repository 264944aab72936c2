import { VARIANT_NAMES } from './targets/catalogue.ts'
import type { VariantName } from './targets/catalogue.ts'
import { parseOp, ROOT_CHAIN } from './space/space.ts'
import type { Schedule } from './space/space.ts'
import { DEFAULT_TARGET, isTargetName, targetNames } from './targets/registry.ts'
import type { TargetName } from './targets/target.ts'
import { HostError, parseHost } from './hosts/host.ts'
import type { Scenario } from './scenario/scenario.ts'
import { InputError } from './scenario/errors.ts'

export { DEFAULT_TARGET, targetNames, type TargetName }

/**
 * Replay tokens: one plain line that names a scenario, the ordering variant,
 * the system under test and the exact interleaving, so a divergence can be
 * pasted back to rerun exactly that schedule on any machine:
 *
 *   <scenario>@<variant>[+<target>][~<host>]:<op>,<op>,…
 *
 * e.g. `ci-flake@canonical:tool-todo,tool-subagent`. The `+<target>` part is
 * written only for a target other than the default `reference`; `~<host>`
 * (e.g. `~node22`, `~locale:tr-TR`) only when the token names the host its
 * bytes belong to. Operations never contain `:`, so the list starts after
 * the last one.
 */

/** Everything a replay needs. */
export interface ReplayToken {
  readonly scenario: string
  readonly variant: VariantName
  readonly target: TargetName
  readonly schedule: Schedule
  /** The host the interleaving ran on, when the token names one (`harness/hosts/`). */
  readonly host?: string
}

/** What a scenario name looks like. */
export const SCENARIO_NAME_PATTERN = /^[a-z0-9-]+$/

const FORM = '<scenario>@<variant>[+<target>][~<host>]:<op>,<op>,… (e.g. ci-flake@canonical:tool-todo,tool-subagent)'

/** Raised for a token that cannot be read; the message says what is wrong and shows the expected form. */
export class TokenError extends InputError {
  override readonly name: string = 'TokenError'

  constructor(problem: string) {
    super([`invalid replay token: ${problem}; expected ${FORM}`])
  }
}

function isVariant(name: string): name is VariantName {
  return (VARIANT_NAMES as readonly string[]).includes(name)
}

/** Why `scenario` is not a valid scenario name, or `undefined`. */
function scenarioProblem(scenario: string): string | undefined {
  if (scenario === '') return 'the scenario name is empty'
  if (!SCENARIO_NAME_PATTERN.test(scenario)) return `scenario "${scenario}" must use only a-z, 0-9 and "-"`
  return undefined
}

/**
 * Why `schedule` cannot be a schedule, or `undefined`: every entry must be an
 * operation label, none may repeat, a plugin's `#k` must follow its `#k−1`
 * (its import, for `#2`), and every batch or timer its import (timers of
 * `_root` have no import). Timers may fire in any order: deadline order is
 * not creation order.
 */
function scheduleProblem(schedule: Schedule): string | undefined {
  const seen = new Set<string>()
  const batchesSeen = new Map<string, number>()
  for (const [index, op] of schedule.entries()) {
    const position = index + 1
    if (op === '') return `operation ${position} is empty`
    const parsed = parseOp(op)
    if (parsed === undefined) {
      return `operation ${position} "${op}" is not a plugin id, <plugin>#<batch ≥ 2> or <plugin>#timer<k ≥ 1>`
    }
    if (seen.has(op)) return `operation "${op}" appears twice`
    seen.add(op)
    const { plugin } = parsed
    if (parsed.kind !== 'import' && plugin !== ROOT_CHAIN && !seen.has(plugin)) return `operation "${op}" comes before "${plugin}"`
    if (parsed.kind === 'timer') continue
    const batch = parsed.kind === 'import' ? 1 : parsed.batch
    const before = batchesSeen.get(plugin) ?? 0
    if (batch !== before + 1) {
      const expected = before === 0 ? plugin : `${plugin}#${before + 1}`
      return `operation "${op}" comes before "${expected}"`
    }
    batchesSeen.set(plugin, batch)
  }
  return undefined
}

/** Renders a token; throws a {@link TokenError} for parts that could not be read back. */
export function formatToken(token: ReplayToken): string {
  const problem =
    scenarioProblem(token.scenario) ??
    (isVariant(token.variant) ? undefined : `unknown variant "${token.variant}"`) ??
    (isTargetName(token.target) ? undefined : `unknown target "${token.target}"`) ??
    scheduleProblem(token.schedule)
  if (problem !== undefined) throw new TokenError(problem)
  const target = token.target === DEFAULT_TARGET ? '' : `+${token.target}`
  const host = token.host === undefined ? '' : `~${hostOf(token.host)}`
  return `${token.scenario}@${token.variant}${target}${host}:${token.schedule.join(',')}`
}

/** Reads a token (surrounding whitespace is ignored); throws a {@link TokenError} saying what is wrong. */
export function parseToken(text: string): ReplayToken {
  const trimmed = text.trim()
  if (trimmed === '') throw new TokenError('the token is empty')
  if (/\s/.test(trimmed)) throw new TokenError('it contains whitespace')
  // A host may hold ":" (locale:tr-TR); operations never do, so with a host the list starts after the last one.
  const tilde = trimmed.indexOf('~')
  const first = trimmed.indexOf(':')
  const named = tilde !== -1 && (first === -1 || tilde < first)
  const colon = named ? trimmed.lastIndexOf(':') : first
  if (colon === -1 || (named && colon < tilde)) throw new TokenError('missing ":" before the operation list')
  const body = trimmed.slice(colon + 1)
  const head = trimmed.slice(0, named ? tilde : colon)
  const host = named ? hostOf(trimmed.slice(tilde + 1, colon)) : undefined

  const at = head.indexOf('@')
  if (at === -1) throw new TokenError(`missing "@" between scenario and variant in "${head}"`)
  const scenario = head.slice(0, at)
  const scenarioIssue = scenarioProblem(scenario)
  if (scenarioIssue !== undefined) throw new TokenError(scenarioIssue)

  const rest = head.slice(at + 1)
  const plus = rest.indexOf('+')
  const variant = plus === -1 ? rest : rest.slice(0, plus)
  const target = plus === -1 ? DEFAULT_TARGET : rest.slice(plus + 1)
  if (variant === '') throw new TokenError('the variant is empty')
  if (!isVariant(variant)) {
    throw new TokenError(`unknown variant "${variant}" (known: ${VARIANT_NAMES.join(', ')})`)
  }
  if (!isTargetName(target)) {
    throw new TokenError(`unknown target "${target}" (known: ${targetNames().join(', ')})`)
  }

  const schedule = body === '' ? [] : body.split(',')
  const scheduleIssue = scheduleProblem(schedule)
  if (scheduleIssue !== undefined) throw new TokenError(scheduleIssue)
  return { scenario, variant, target, schedule, ...host === undefined ? {} : { host } }
}

/** A token's host part, as a canonical host name. */
function hostOf(text: string): string {
  try {
    return parseHost(text).name
  } catch (error) {
    throw new TokenError(error instanceof HostError ? error.message : String(error))
  }
}

/** The replay token of an interleaving of `scenario`. */
export function tokenOf(scenario: Scenario, schedule: Schedule): string {
  return formatToken({ scenario: scenario.name, variant: scenario.variant, target: scenario.target, schedule, ...scenario.runsOn === undefined ? {} : { host: scenario.runsOn } })
}
