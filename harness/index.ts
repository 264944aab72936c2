/**
 * loadrace's programmatic surface: load scenarios, sweep them, replay one
 * interleaving, render a report. The CLI (`harness/cli/`) is built on exactly
 * these; everything else under `harness/` is machinery.
 */
export { loadScenario, loadScenarios, findScenarioFiles } from './scenario/load.ts'
export type { Scenario, PluginSpec, Expectation } from './scenario/scenario.ts'
export { ScenarioError, ScenarioErrors } from './scenario/errors.ts'
export { sweep, sweepScenario } from './sweep/sweep.ts'
export { withOverrides } from './scenario/overrides.ts'
export type { SweepRun, SweepAllRun, SweepSettings } from './sweep/sweep.ts'
export { DEFAULT_BUDGET, DEFAULTS, KNOBS, resolveSettings } from './settings/index.ts'
export type { Settings } from './settings/index.ts'
export { inProcessRunner } from './runners/runner.ts'
export type { Runner, InterleavingRecord } from './runners/runner.ts'
export { workerPool } from './runners/worker-pool.ts'
export { parseShard } from './settings/shard.ts'
export { runInterleaving } from './runtime/interleaving.ts'
export { formatToken, parseToken } from './token.ts'
export { strategies, STRATEGY_NAMES } from './strategies/index.ts'
export type { Guarantee, StrategyName } from './strategies/index.ts'
export { loadTarget } from './targets/index.ts'
export type { Target, TargetName } from './targets/target.ts'
export { parseFormats } from './settings/formats.ts'
export { writeReport } from './report/reporters/write-report.ts'
export type { Report } from './report/sweep-report.ts'
export type { ScenarioReport } from './judge/scenario-report.ts'
export type { Divergence } from './verdict/divergence.ts'
export type { Verdict } from './verdict/verdict.ts'
export { expectDeterministic } from './vitest.ts'
export { checkScenario, expectScenario, loadraceMatchers, ScenarioFailure } from './vitest.ts'
export type { ScenarioCheckOptions } from './vitest.ts'
/**
 * For plugin modules written in TypeScript: cordis's types, with the
 * reference's services on `Context` (`ctx.tools`, `ctx.systemPrompt`, …).
 */
export type { Context, Plugin } from '@deepseek-ai/cordis'
export type { SystemPrompt, ToolCallContext, ToolDefinition, ToolRegistry } from './targets/index.ts'
