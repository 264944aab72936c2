/**
 * What `loadrace test` costs. Two figures, each measured side by side in one
 * run:
 *
 * - the preload's cost: one test as its suite runs it (dsh's `text-turn`
 *   snapshot test, or a test of the fixture suite), every process it starts
 *   with the preload in `NODE_OPTIONS` and a row to follow, against the same
 *   command without it; and the same for one bare process boot (the fixture
 *   application booting its tied configuration, on Node 22 and on Node 20) —
 *   timed by tinybench in rotated rounds on the wall clock (a child process's
 *   time is wall time);
 * - the tier's cost: a test command under `loadrace test` with its default
 *   plan (the natural run, one run per row, every rerun alone), against one
 *   plain run of the same command — dsh 0.1.1-rc.2's snapshot tier in the
 *   workspace `.ci/build-dsh` builds, on Node 22, or the fixture's own suite
 *   with `--quick` or when the workspace is not built.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Bench } from 'tinybench'
import { node22Binary } from '../harness/hosts/host.ts'
import { isRecordFile, RECORDS_VARIABLE, SCHEDULE_VARIABLE, type BootRecord } from '../harness/preload/protocol.js'
import type { TestReport as SuiteReport } from '../harness/report/test-report.ts'
import { nodeOptionsWithPreload } from '../harness/suite/command-run.ts'
import { withWrappingConfig } from '../harness/suite/vitest-config.ts'
import type { TestModeFigures } from './figures.ts'
import { WORKSPACE } from './workspace.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const APP = join(ROOT, 'test/fixtures/suite-app')
const BOOTS = join(ROOT, 'test/fixtures/vitest-boots')
const BIN = join(ROOT, 'bin/loadrace.js')
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs')

/** This process's environment with `node` (a binary named `node`) first on `PATH`, so a command's `node` is that one. */
function withNodeFirst(node: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` }
}

/** Whether `.ci/build-dsh` has built dsh's workspace. */
function workspaceBuilt(): boolean {
  return existsSync(join(ROOT, 'build/dsh/.stamp'))
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** A command timed with the preload (following `rows`) and without it. */
interface PreloadSubject {
  command: string
  node: string
  cwd: string
  argv: string[]
  env: NodeJS.ProcessEnv
  /** The row each configuration follows; absent: taken from a natural run of the command (each configuration's realised order, reversed). */
  rows?: Record<string, string[]>
  /** A vitest command whose tests boot the loader in its own workers: run with the wrapping config when preloaded, as `loadrace test` runs it. */
  inWorkers?: true
}

/** The subject's arguments when preloaded: with the wrapping config for a vitest command whose tests boot in its workers. */
function preloadedArgv(subject: PreloadSubject, folder: string): string[] {
  return subject.inWorkers === true ? withWrappingConfig(subject.argv, subject.cwd, folder) : subject.argv
}

/** Runs `subject` once with `env` added (and `argv` instead of its own); throws when it fails. */
function runSubject(subject: PreloadSubject, env: NodeJS.ProcessEnv, argv: readonly string[] = subject.argv): void {
  const result = spawnSync(subject.node, argv, { cwd: subject.cwd, env: { ...subject.env, ...env }, encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`${subject.command} failed (exit ${result.status}): ${result.stderr.slice(-2_000)}`)
}

/** Each configuration's realised order in a natural run of `subject`, reversed: a row every process of the command follows. */
function reversedReferenceRows(subject: PreloadSubject, folder: string): Record<string, string[]> {
  const records = join(folder, 'reference-records')
  mkdirSync(records)
  const schedule = join(folder, 'reference.json')
  writeFileSync(schedule, JSON.stringify({ mode: 'natural', project: subject.cwd, rows: {} }))
  runSubject(subject, { NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: schedule, [RECORDS_VARIABLE]: records }, preloadedArgv(subject, folder))
  const rows: Record<string, string[]> = {}
  for (const name of readdirSync(records).filter(isRecordFile)) {
    const record = JSON.parse(readFileSync(join(records, name), 'utf8')) as BootRecord
    if (record.configuration !== null && record.released.length > 1) rows[record.configuration] = [...record.released].reverse()
  }
  if (Object.keys(rows).length === 0) throw new Error(`${subject.command} booted no cordis loader the preload saw`)
  return rows
}

/** The fixture app booting its tied configuration on `node`: one bare process. */
export function bootSubject(node: string): PreloadSubject {
  return {
    command: 'node test/fixtures/suite-app/app.mjs configs/tie.cordis.yml',
    node,
    cwd: APP,
    argv: [join(APP, 'app.mjs'), join(APP, 'configs/tie.cordis.yml')],
    env: process.env,
    rows: { 'configs/tie.cordis.yml': ['prompt', 'beta', 'alpha', 'delta', 'gamma'] },
  }
}

/**
 * One test as its suite runs it, every process of it preloaded: dsh
 * 0.1.1-rc.2's `text-turn` snapshot test on Node 22 in the built workspace
 * (vitest, the application it spawns), or with `quick` or no workspace the
 * fixture suite's "has every tool when it answers".
 */
export function testSubject(node22: string, quick: boolean): PreloadSubject {
  if (!quick && workspaceBuilt()) {
    return {
      command: 'vitest run --config vitest.snapshot.config.ts examples/acp-agent/tests/acp.snapshot.ts -t "snapshot: text-turn matches" (dsh 0.1.1-rc.2, Node 22)',
      node: node22,
      cwd: WORKSPACE,
      argv: ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.snapshot.config.ts', 'examples/acp-agent/tests/acp.snapshot.ts', '-t', 'snapshot: text-turn matches'],
      env: withNodeFirst(node22),
    }
  }
  return {
    command: 'vitest run -t "has every tool when it answers" (test/fixtures/suite-app, Node 22)',
    node: node22,
    cwd: APP,
    argv: [VITEST, 'run', '--config', 'vitest.config.mjs', '-t', 'has every tool when it answers'],
    env: withNodeFirst(node22),
  }
}

/** A dsh unit spec that boots a composition inside vitest's own worker (nine entries from a temporary cordis.yml). */
const DSH_UNIT_SPEC = 'packages/terminal/tool-terminal/tests/loader-composition.spec.ts'

/**
 * One spec file whose tests boot a loader composition inside vitest's own
 * worker, under loadrace's instrumentation following a row (the wrapping
 * config, the preload in every worker) against the same command without
 * it: dsh 0.1.1-rc.2's tool-terminal composition spec on Node 22 in the
 * built workspace, or with `quick` or no workspace the fixture suite's
 * planted tie (test/fixtures/vitest-boots, its sorting variant).
 */
export function unitSubject(node22: string, quick: boolean): PreloadSubject {
  if (!quick && workspaceBuilt()) {
    return {
      command: `vitest run ${DSH_UNIT_SPEC} (dsh 0.1.1-rc.2, Node 22)`,
      node: node22,
      cwd: WORKSPACE,
      argv: ['node_modules/vitest/vitest.mjs', 'run', DSH_UNIT_SPEC],
      env: withNodeFirst(node22),
      inWorkers: true,
    }
  }
  return {
    command: 'vitest run tests/forks/tie.test.ts (test/fixtures/vitest-boots, Node 22)',
    node: node22,
    cwd: BOOTS,
    argv: [VITEST, 'run', 'tests/forks/tie.test.ts'],
    env: { ...withNodeFirst(node22), FIXTURE_TIE: 'broken' },
    inWorkers: true,
  }
}

/**
 * The preload's cost: `subject` with the preload following a row against the
 * same command without it, median over rounds of (with) / (without), each
 * round timing both (in alternating order) on the wall clock.
 */
export async function measurePreload(subject: PreloadSubject, options: { rounds: number, msPerRound: number, iterations: number }): Promise<TestModeFigures['preload']> {
  const folder = mkdtempSync(join(tmpdir(), 'loadrace-bench-preload-'))
  try {
    const records = join(folder, 'records')
    mkdirSync(records)
    const schedule = join(folder, 'schedule.json')
    writeFileSync(schedule, JSON.stringify({ mode: 'row', project: subject.cwd, rows: subject.rows ?? reversedReferenceRows(subject, folder) }))
    const plain = { NODE_OPTIONS: '' }
    const preloaded = { NODE_OPTIONS: nodeOptionsWithPreload(undefined), [SCHEDULE_VARIABLE]: schedule, [RECORDS_VARIABLE]: records }
    const argv = preloadedArgv(subject, folder)
    const tasks = [['without the preload', () => runSubject(subject, plain)], ['with the preload', () => runSubject(subject, preloaded, argv)]] as const
    const perRound: [number[], number[]] = [[], []]
    for (let round = 0; round < options.rounds; round++) {
      const bench = new Bench({ time: options.msPerRound, iterations: options.iterations, warmup: round === 0, warmupIterations: options.iterations, warmupTime: 0 })
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
      command: subject.command,
      node: spawnSync(subject.node, ['--version'], { encoding: 'utf8' }).stdout.trim(),
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

/** The `.spec.ts` files under `folder` (relative to the workspace), never descending into `node_modules` or through a symbolic link. */
function specFilesUnder(folder: string): string[] {
  return readdirSync(join(WORKSPACE, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : specFilesUnder(path)
    return entry.isFile() && entry.name.endsWith('.spec.ts') ? [path] : []
  })
}

/** The spec files of dsh's unit tier that boot a loader in the test itself (what `grep -rlE` finds, as dsh's README lists them). */
export function dshUnitSpecs(): string[] {
  const pattern = /cordis-plugin-loader|loader\.create\(|EntryTree/
  return ['packages', 'examples', 'apps', 'vendor'].flatMap(specFilesUnder)
    .filter(path => pattern.test(readFileSync(join(WORKSPACE, path), 'utf8')))
    .sort()
}

/** dsh's unit spec files that boot a loader when the workspace is built (and not `quick`), else the fixture suite of in-worker boots. */
export function unitTierOf(quick: boolean): Tier {
  const node22 = node22Binary()
  if (!quick && node22 !== undefined && workspaceBuilt()) {
    const specs = dshUnitSpecs()
    return { name: `dsh 0.1.1-rc.2 unit spec files that boot a loader (${specs.length}), Node 22`, cwd: WORKSPACE, command: ['node', 'node_modules/vitest/vitest.mjs', 'run', ...specs], env: withNodeFirst(node22) }
  }
  return { name: 'the fixture suite of in-worker boots (test/fixtures/vitest-boots)', cwd: BOOTS, command: [process.execPath, VITEST, 'run'], env: process.env }
}

/** dsh's snapshot tier when the workspace is built (and not `quick`), else the fixture's suite. */
export function tierOf(quick: boolean): Tier {
  const node22 = node22Binary()
  if (!quick && node22 !== undefined && workspaceBuilt()) {
    return {
      name: 'dsh 0.1.1-rc.2 snapshot tier (examples/acp-agent, headless-agent, jsonrpc-agent), Node 22',
      cwd: WORKSPACE,
      command: ['node', 'node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.snapshot.config.ts', 'examples/acp-agent', 'examples/headless-agent', 'examples/jsonrpc-agent'],
      env: withNodeFirst(node22),
    }
  }
  return { name: 'the fixture application\'s suite (test/fixtures/suite-app)', cwd: APP, command: [process.execPath, VITEST, 'run', '--config', 'vitest.config.mjs'], env: process.env }
}

/** One plain run of `tier`'s command against `loadrace test` (default plan) over it, on the wall clock. */
export function measureTier(tier: Tier, options: { onStep?: (text: string) => void }): NonNullable<TestModeFigures['tier']> {
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
