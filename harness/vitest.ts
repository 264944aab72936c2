/**
 * loadrace in a test runner (`loadrace/vitest`): check a scenario file the way
 * `loadrace sweep FILE` does — its `expect:` block and its golden — and fail
 * with the lines the command prints for it: the problems, the blame pair, the
 * replay commands and the trimmed diff. Importing this module needs no test
 * runner; the matcher is registered with `expect.extend(loadraceMatchers)`.
 */
// Types only: the matcher's declaration merges into vitest's (nothing of vitest is loaded).
import type {} from 'vitest'
import type { GoldenPolicy } from './goldens/golden.ts'
import { resultOf } from './report/present.ts'
import { failureDetails, scenarioBlock, scenarioLine } from './report/terminal.ts'
import type { ScenarioReport } from './judge/scenario-report.ts'
import { loadScenario } from './scenario/load.ts'
import { inProcessRunner } from './runners/runner.ts'
import { sweepScenario } from './sweep/sweep.ts'
import { resolveSettings, type Settings } from './settings/index.ts'
import type { Env } from './settings/environment.ts'

/**
 * How to check a scenario: the settings of `loadrace sweep` that apply to one
 * file, by the same names. Every one defaults as the command does: from its
 * `LOADRACE_*` variable when set, else from the one table of defaults.
 */
export interface ScenarioCheckOptions extends Partial<Pick<Settings, 'strategy' | 'budget' | 'seed' | 'depth' | 'strength' | 'variant' | 'target' | 'timeoutMs' | 'goldens' | 'updateGoldens' | 'keepWorkdirs' | 'ci'>> {
  /** @deprecated The old name of `timeoutMs`. */
  timeout?: number
}

/** The options of `loadrace sweep` that `ScenarioCheckOptions` has, each with its name there. */
const CHECK_OPTIONS: Readonly<Record<string, Exclude<keyof ScenarioCheckOptions, 'ci' | 'timeout'>>> = {
  'strategy': 'strategy',
  'budget': 'budget',
  'seed': 'seed',
  'depth': 'depth',
  'strength': 'strength',
  'variant': 'variant',
  'target': 'target',
  'timeout': 'timeoutMs',
  'goldens': 'goldens',
  'update-goldens': 'updateGoldens',
  'keep-workdirs': 'keepWorkdirs',
}

/**
 * The settings of one check, resolved as the command resolves its own: the
 * options given beat the environment, which beats the defaults. A bad option
 * throws a `UsageError` naming it (`options.budget: …`).
 */
export function checkSettings(options: ScenarioCheckOptions, env: Env = process.env): Settings {
  const given = (option: string) => {
    const name = CHECK_OPTIONS[option]
    return name === 'timeoutMs' ? options.timeoutMs ?? options.timeout : name === undefined ? undefined : options[name]
  }
  return resolveSettings({
    command: 'sweep',
    options: Object.keys(CHECK_OPTIONS),
    given: {
      value: option => { const value = given(option); return typeof value === 'boolean' || value === undefined ? undefined : String(value) },
      flag: option => { const value = given(option); return typeof value === 'boolean' ? value : undefined },
      nameOf: option => `options.${CHECK_OPTIONS[option]}`,
    },
    // `ci` given says what `CI` would.
    env: options.ci === undefined ? env : { ...env, CI: options.ci ? 'true' : '' },
  })
}

/** A scenario that did not pass: the message is what `loadrace sweep` prints for it. */
export class ScenarioFailure extends Error {
  override readonly name = 'ScenarioFailure'
  /** The scenario's entry, as report.json would hold it. */
  readonly report: ScenarioReport

  constructor(report: ScenarioReport, message: string) {
    super(message)
    this.report = report
  }
}

/**
 * What `loadrace sweep` prints for this scenario, under a line naming its
 * file; for a scenario that met its expectation (a race it was expected to
 * show) the details a failure would have, for `expectDeterministic`.
 */
export function describeFailure(report: ScenarioReport): string {
  const width = report.name.length
  const lines = resultOf(report) === 'failed' ? scenarioBlock(report, width) : [scenarioLine(report, width), ...failureDetails(report)]
  return [`loadrace: ${report.file}`, ...lines].join('\n')
}

/**
 * Sweeps one scenario file in this process as `loadrace sweep FILE --workers 1`
 * would, comparing (or writing) its golden, and resolves to its report entry
 * whatever the result. Rejects on a malformed file (a `ScenarioError`).
 */
export async function checkScenario(file: string, options: ScenarioCheckOptions = {}): Promise<ScenarioReport> {
  const settings = checkSettings(options)
  return sweepFile(file, settings, settings)
}

/** Sweeps one scenario file in this process with one runner; `goldens` undefined: no golden check. */
async function sweepFile(file: string, settings: Settings, goldens: GoldenPolicy | undefined): Promise<ScenarioReport> {
  const scenario = await loadScenario(file)
  const runner = inProcessRunner({ timeoutMs: settings.timeoutMs, keepWorkdirs: settings.keepWorkdirs })
  try {
    return await sweepScenario(scenario, settings, { runner, goldens })
  } finally {
    await runner.close()
  }
}

/**
 * Checks a scenario file as `loadrace sweep FILE` would and throws a
 * `ScenarioFailure` carrying the command's lines for it unless it passes — a
 * scenario expected to diverge passes when the race is found. A scenario its
 * target cannot run passes, as skipped. Resolves to the report entry.
 *
 * ```ts
 * it('registers tools deterministically', async () => {
 *   await expectScenario('scenarios/ci-flake.yml')
 * })
 * ```
 */
export async function expectScenario(file: string, options: ScenarioCheckOptions = {}): Promise<ScenarioReport> {
  const report = await checkScenario(file, options)
  if (resultOf(report) === 'failed') throw new ScenarioFailure(report, describeFailure(report))
  return report
}

/** The parts of vitest's matcher state the matcher reads. */
interface MatcherContext {
  isNot?: boolean
  snapshotState?: { snapshotUpdateState?: string }
}

/** The result a vitest matcher returns. */
interface MatcherResult {
  pass: boolean
  message: () => string
}

/**
 * Matchers for `expect.extend(loadraceMatchers)`:
 * `await expect('scenarios/x.yml').toPassLoadrace(options?)` passes exactly
 * when `loadrace sweep scenarios/x.yml` would, and fails with its lines.
 * Under `vitest -u` (update snapshots) goldens are written anew.
 */
export const loadraceMatchers = {
  async toPassLoadrace(this: MatcherContext, received: unknown, options: ScenarioCheckOptions = {}): Promise<MatcherResult> {
    if (typeof received !== 'string') {
      return { pass: false, message: () => `toPassLoadrace: expected the path of a scenario file, got ${typeof received}` }
    }
    const updateGoldens = options.updateGoldens ?? this.snapshotState?.snapshotUpdateState === 'all'
    const report = await checkScenario(received, { ...options, updateGoldens })
    const pass = resultOf(report) !== 'failed'
    return {
      pass,
      message: () => (pass ? `loadrace: ${received}: ${report.name} passes (${report.verdict}), expected it not to` : describeFailure(report)),
    }
  },
}

declare module 'vitest' {
  // Merged with vitest's own declaration, whose type parameter (`any` default included) every declaration must repeat.
  interface Matchers<T = any> {
    /** Passes exactly when `loadrace sweep FILE` would; fails with its lines. Register with `expect.extend(loadraceMatchers)`. */
    toPassLoadrace(options?: ScenarioCheckOptions): Promise<void>
  }
}

/**
 * Throws unless every explored interleaving of the scenario produced the same
 * bytes; resolves to the report entry. It checks the verdict only: it ignores
 * the scenario's `expect:` block and golden, so it disagrees with the command
 * on a scenario expected to diverge.
 *
 * @deprecated Use `expectScenario(file)` (or `toPassLoadrace()`), which agrees
 * with `loadrace sweep`. For a scenario expected to be deterministic the two
 * differ only in that `expectScenario` also checks the golden and the rest of
 * `expect:`.
 */
export async function expectDeterministic(file: string, options: ScenarioCheckOptions = {}): Promise<ScenarioReport> {
  const report = await sweepFile(file, checkSettings(options), undefined)
  if (report.skipped !== undefined) throw new Error(`${file}: not run on target ${report.target}: ${report.skipped}`)
  if (report.verdict !== 'deterministic') throw new ScenarioFailure(report, describeFailure(report))
  return report
}
