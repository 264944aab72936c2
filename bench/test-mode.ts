/**
 * What `loadrace test` costs. Two figures, each measured side by side in one
 * run:
 *
 * - the preload's cost per process: the fixture application
 *   (test/fixtures/suite-app) booting its tied configuration with the preload
 *   in `NODE_OPTIONS` and a row to follow, against the same process without
 *   it, timed by tinybench in rotated rounds on the wall clock (a child
 *   process's time is wall time);
 * - the tier's cost: a test command under `loadrace test` with its default
 *   plan (the reference run, one run per row, every rerun alone), against one
 *   plain run of the same command — dsh 0.1.1-rc.2's snapshot tier in the
 *   workspace `.ci/build-dsh` builds, on Node 22, or the fixture's own suite
 *   with `--quick` or when the workspace is not built.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Bench } from 'tinybench'
import { node22Binary } from '../harness/hosts/host.ts'
import { RECORDS_VARIABLE, SCHEDULE_VARIABLE } from '../harness/preload/protocol.js'
import type { SuiteReport } from '../harness/suite/report.ts'
import { nodeOptionsWithPreload } from '../harness/suite/suite-run.ts'
import type { TestModeFigures } from './figures.ts'
import { WORKSPACE } from './workspace.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const APP = join(ROOT, 'test/fixtures/suite-app')
const BIN = join(ROOT, 'bin/loadrace.js')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The fixture app booting its tied configuration on `node`, with or without the preload; throws when it fails. */
function bootApp(node: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(node, [join(APP, 'app.mjs'), join(APP, 'configs/tie.cordis.yml')], { cwd: APP, env, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`the fixture app failed: ${result.stderr}`)
}

/** The preload's cost per process: median over rounds of (with preload) / (without), each round timing both. */
export async function measurePreload(node: string, options: { rounds: number, msPerRound: number }): Promise<TestModeFigures['preload']> {
  const folder = mkdtempSync(join(tmpdir(), 'loadrace-bench-preload-'))
  try {
    const records = join(folder, 'records')
    mkdirSync(records)
    const schedule = join(folder, 'schedule.json')
    writeFileSync(schedule, JSON.stringify({ mode: 'row', project: APP, rows: { 'configs/tie.cordis.yml': ['prompt', 'beta', 'alpha', 'delta', 'gamma'] } }))
    const plain = { ...process.env, NODE_OPTIONS: '' }
    const preloaded = { ...process.env, NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: schedule, [RECORDS_VARIABLE]: records }
    const tasks = [['without the preload', () => bootApp(node, plain)], ['with the preload', () => bootApp(node, preloaded)]] as const
    const perRound: [number[], number[]] = [[], []]
    for (let round = 0; round < options.rounds; round++) {
      const bench = new Bench({ time: options.msPerRound, iterations: 5, warmup: round === 0 })
      const order = round % 2 === 0 ? [0, 1] : [1, 0]
      for (const index of order) bench.add(tasks[index]![0], tasks[index]![1])
      await bench.run()
      for (const index of [0, 1]) {
        const result = bench.getTask(tasks[index]![0])?.result
        if (result === undefined || !('latency' in result)) throw new Error(`bench task ${tasks[index]![0]} produced no statistics`)
        perRound[index]!.push(result.latency.p50)
      }
    }
    return {
      command: 'node test/fixtures/suite-app/app.mjs configs/tie.cordis.yml',
      node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim(),
      withoutMs: median(perRound[0]),
      withMs: median(perRound[1]),
      ratio: median(perRound[1].map((cost, round) => cost / perRound[0][round]!)),
      rounds: options.rounds,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

interface Tier {
  name: string
  cwd: string
  command: string[]
  env: NodeJS.ProcessEnv
}

/** dsh's snapshot tier when the workspace is built (and not `quick`), else the fixture's suite. */
function tierOf(quick: boolean): Tier {
  const node22 = node22Binary()
  if (!quick && node22 !== undefined && (() => { try { readFileSync(join(ROOT, 'build/dsh/.stamp')); return true } catch { return false } })()) {
    const shim = mkdtempSync(join(tmpdir(), 'loadrace-bench-node22-'))
    spawnSync('ln', ['-s', node22, join(shim, 'node')])
    return {
      name: 'dsh 0.1.1-rc.2 snapshot tier (examples/acp-agent, headless-agent, jsonrpc-agent), Node 22',
      cwd: WORKSPACE,
      command: ['node', 'node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.snapshot.config.ts', 'examples/acp-agent', 'examples/headless-agent', 'examples/jsonrpc-agent'],
      env: { ...process.env, PATH: `${shim}:${process.env.PATH ?? ''}` },
    }
  }
  return { name: 'the fixture application\'s suite (test/fixtures/suite-app)', cwd: APP, command: [process.execPath, VITEST, 'run', '--config', 'vitest.config.mjs'], env: process.env }
}

/** One plain run of the tier's command against `loadrace test` (default plan) over it, on the wall clock. */
export function measureTier(options: { quick: boolean, onStep?: (text: string) => void }): TestModeFigures['tier'] {
  const tier = tierOf(options.quick)
  const report = mkdtempSync(join(tmpdir(), 'loadrace-bench-tier-'))
  try {
    options.onStep?.(`plain run of ${tier.name}`)
    let started = performance.now()
    spawnSync(tier.command[0]!, tier.command.slice(1), { cwd: tier.cwd, env: tier.env, stdio: 'ignore' })
    const plainMs = performance.now() - started
    options.onStep?.(`plain: ${(plainMs / 1000).toFixed(0)} s; now loadrace test with its default plan`)
    started = performance.now()
    spawnSync(process.execPath, [BIN, 'test', '--report', report, '--', ...tier.command], { cwd: tier.cwd, env: tier.env, stdio: 'ignore' })
    const loadraceMs = performance.now() - started
    const result = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as SuiteReport
    return {
      tier: tier.name,
      plainMs,
      loadraceMs,
      ratio: loadraceMs / plainMs,
      runs: result.summary.runs,
      reruns: result.summary.reruns,
      tests: result.summary.tests,
      verdicts: { holds: result.summary.holds, 'pins-one': result.summary['pins-one'], fails: result.summary.fails, flaky: result.summary.flaky, skipped: result.summary.skipped },
    }
  } finally {
    rmSync(report, { recursive: true, force: true })
  }
}
