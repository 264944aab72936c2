import { watch, type FSWatcher } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { resultOf, verdictText } from '../report/present.ts'
import type { Style } from '../report/style.ts'
import { scenarioBlock } from '../report/terminal.ts'
import type { Report } from '../report/sweep-report.ts'
import { findScenarioFiles, isScenarioFileName } from '../scenario/discover.ts'
import { shownPath } from '../scenario/shown-path.ts'
import type { OptionSpec, ParsedArgs } from './args.ts'
import { sweepInChild } from './child-sweep.ts'
import { styleFor } from './colour.ts'
import type { Cli, Command } from './command.ts'
import { watchInterruptions } from '../signals/interrupt.ts'
import { envFor, OPTIONS, readSettings } from './options.ts'
import type { Env } from './environment.ts'
import { DEFAULT_SCENARIO_PATHS } from './scenarios.ts'
import { nameWidth } from '../report/summary.ts'
import { InputError } from '../scenario/errors.ts'
import { isEditorTemporary, moduleFilesOf } from './watched-files.ts'

/** One scenario's entry of a report. */
type ScenarioReport = Report['scenarios'][number]

/** The sweep options `watch` passes on to each sweep. */
const FORWARDED: readonly OptionSpec[] = [
  OPTIONS.strategy, OPTIONS.budget, OPTIONS.seed, OPTIONS.depth, OPTIONS.strength, OPTIONS.variant, OPTIONS.target,
  OPTIONS.workers, OPTIONS.timeout, OPTIONS.updateGoldens, OPTIONS.goldens, OPTIONS.showOutput,
]

/** Changes closer together than this are swept together. */
const SETTLE_MS = 150

/** The command-line arguments of the forwarded options, as given. */
function forwardedArgs(args: ParsedArgs): string[] {
  return FORWARDED.flatMap((option) => {
    if (option.value === undefined) return args.flags.has(option.name) ? [`--${option.name}`] : []
    return (args.values.get(option.name) ?? []).map(value => `--${option.name}=${value}`)
  })
}

/** Whether two results of one scenario say the same: result, verdict, outcome and the outputs' bytes. */
function sameResult(a: ScenarioReport, b: ScenarioReport): boolean {
  const hashes = (entry: ScenarioReport) => entry.outputs.map(output => output.hash).join(',')
  return resultOf(a) === resultOf(b) && verdictText(a) === verdictText(b) && hashes(a) === hashes(b)
}

/** `12:03:07`. */
function clock(): string {
  return new Date().toTimeString().slice(0, 8)
}

/** One watch session: the scenario files followed, their modules, their last results, and the watchers. */
class WatchSession {
  private readonly modules = new Map<string, string[]>()
  private readonly last = new Map<string, ScenarioReport>()
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly changed = new Set<string>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> = Promise.resolve()

  constructor(
    private readonly cli: Cli,
    private readonly style: Style,
    private readonly roots: readonly string[],
    private readonly sweepArgs: readonly string[],
    private readonly childEnv: Env,
    private readonly reportDir: string,
    private readonly signal: AbortSignal,
  ) {}

  /** Sweeps `files` in a child process and prints each scenario, with how its result changed. */
  async sweep(files: readonly string[]): Promise<void> {
    const run = await sweepInChild(files, this.sweepArgs, this.reportDir, this.childEnv, this.signal)
    if (this.signal.aborted) return
    for (const file of files) this.modules.set(resolve(file), await moduleFilesOf(file))
    if (run.report === undefined) {
      this.cli.stdout.write(run.stderr.split('\n').filter(line => line !== '').map(line => `${this.style.failed('✗')}  ${line}\n`).join(''))
      this.follow()
      return
    }
    const width = nameWidth(run.report.scenarios.map(entry => entry.name))
    for (const entry of run.report.scenarios) {
      const lines = scenarioBlock(entry, width, this.style, { showOutput: this.sweepArgs.includes(`--${OPTIONS.showOutput.name}`) })
      const before = this.last.get(resolve(entry.file))
      if (before !== undefined) {
        lines.push(sameResult(before, entry)
          ? this.style.dim('    as before')
          : `    was: ${resultOf(before)}, ${before.skipped === undefined ? verdictText(before) : 'skipped'}`)
      }
      this.last.set(resolve(entry.file), entry)
      this.cli.stdout.write(lines.map(line => `${line}\n`).join(''))
    }
    this.follow()
  }

  /** Watches the folders of every followed file and every root folder (new scenario files appear there). */
  private follow(): void {
    const folders = new Set([
      ...this.roots.map(root => resolve(root)),
      ...[...this.modules.keys()].map(file => dirname(file)),
      ...[...this.modules.values()].flat().map(file => dirname(file)),
    ])
    for (const folder of folders) {
      if (this.watchers.has(folder)) continue
      try {
        const watcher = watch(folder, (_event, name) => { if (name !== null) this.noticed(join(folder, name.toString())) })
        watcher.on('error', () => { this.watchers.delete(folder) })
        this.watchers.set(folder, watcher)
      } catch {
        // A folder that vanished is followed again once a sweep names it.
      }
    }
  }

  private noticed(path: string): void {
    if (isEditorTemporary(basename(path))) return
    this.changed.add(path)
    clearTimeout(this.timer)
    this.timer = setTimeout(() => { this.running = this.running.then(() => this.resweep()) }, SETTLE_MS)
  }

  /** The scenario files a set of changed paths affects: changed scenario files, new ones in a root, users of a changed module. */
  private async affected(paths: readonly string[]): Promise<{ files: string[], removed: string[] }> {
    const files = new Set<string>()
    const removed: string[] = []
    for (const path of paths) {
      const exists = await stat(path).then(info => info.isFile(), () => false)
      const followed = this.modules.has(path)
      if (followed && !exists) removed.push(path)
      else if (exists && isScenarioFileName(basename(path)) && (followed || this.roots.some(root => path.startsWith(`${resolve(root)}${sep}`)))) files.add(path)
      for (const [file, modules] of this.modules) if (modules.includes(path) && !removed.includes(file)) files.add(file)
    }
    return { files: [...files].sort(), removed }
  }

  private async resweep(): Promise<void> {
    if (this.signal.aborted) return
    const paths = [...this.changed]
    this.changed.clear()
    const { files, removed } = await this.affected(paths)
    if (files.length === 0 && removed.length === 0) return
    const shown = paths.map(path => shownPath(path)).sort().join(', ')
    this.cli.stdout.write(`\n${this.style.dim(`[${clock()}] changed: ${shown}`)}\n`)
    for (const file of removed) {
      this.modules.delete(file)
      this.last.delete(file)
      this.cli.stdout.write(`-  ${shownPath(file)} removed\n`)
    }
    if (files.length > 0) await this.sweep(files.map(file => shownPath(file)))
  }

  /** Stops watching and waits for a sweep under way. */
  async close(): Promise<void> {
    clearTimeout(this.timer)
    for (const watcher of this.watchers.values()) watcher.close()
    await this.running
  }
}

/** `loadrace watch`: sweep, then re-sweep each scenario whose file or plugin module changes. */
export const watchCommand: Command = {
  spec: {
    name: 'watch',
    summary: 're-sweep a scenario whenever its file or one of its plugin modules changes',
    synopsis: 'watch [FILE|DIR…] [options]',
    description: [
      'Sweeps the scenarios once, then watches their files, the plugin module files they name (module:), and the '
        + 'folders given (for new scenario files). When one changes, only the scenarios it affects are swept again, in a '
        + 'fresh process (so edited modules are imported anew), and printed with how their result compares to the last '
        + 'sweep: "as before", or "was: …". Goldens follow the sweep rules. Modules a plugin module imports are not '
        + 'followed; save the module itself, or the scenario file, to sweep again. The temporary and backup files editors '
        + 'write while saving (sedXXXXXX, 4913, *~, .#*, #*#, *.swp, *___jb_tmp___, *.tmp, *.bak, …) are ignored. Stop with Ctrl-C.',
    ],
    operands: [{ name: 'FILE|DIR…', help: 'scenario files, or folders searched recursively (default: scenarios/)' }],
    options: FORWARDED.map(option => (option.name === OPTIONS.workers.name ? { ...option, default: '1' } : option)),
    maxOperands: Infinity,
  },
  async run(args, cli) {
    // Validated here, once; each sweep gets the workers resolved here (watch's default is 1: in the child's own thread).
    const settings = readSettings(args, watchCommand.spec, cli)
    const sweepArgs = [...forwardedArgs(args).filter(arg => !arg.startsWith(`--${OPTIONS.workers.name}=`)), `--${OPTIONS.workers.name}=${settings.workers}`]
    // The variables of the options watch does not take (--shard, --hosts, …) are not the child sweep's either.
    const childEnv = envFor(FORWARDED.map(option => option.name), cli.env)
    const roots = args.operands.length > 0 ? args.operands : DEFAULT_SCENARIO_PATHS
    const files = await findScenarioFiles(roots)
    const found = await Promise.all(files.map(file => stat(file).then(info => info.isFile(), () => false)))
    if (files.length === 0 || found.includes(false)) {
      const missing = files.find((_, i) => !found[i])
      throw new InputError([missing === undefined ? `no scenario files (.yml, .yaml) found in ${roots.join(', ')}` : `${missing}: no such scenario file`])
    }
    const folders: string[] = []
    for (const root of roots) if (await stat(root).then(info => info.isDirectory(), () => false)) folders.push(root)
    const interruption = watchInterruptions()
    const reportDir = await mkdtemp(join(tmpdir(), 'loadrace-watch-'))
    const style = styleFor(cli.stdout, cli.env)
    const session = new WatchSession(cli, style, folders, sweepArgs, childEnv, reportDir, interruption.signal)
    try {
      cli.stdout.write(style.dim(`loadrace watch: sweeping ${files.length} scenario file${files.length === 1 ? '' : 's'}, then each again when it or its plugin modules change (Ctrl-C stops)`) + '\n')
      await session.sweep(files)
      if (!interruption.signal.aborted) await new Promise(resolve => interruption.signal.addEventListener('abort', resolve, { once: true }))
      return interruption.exitCode()!
    } finally {
      await session.close()
      interruption.dispose()
      await rm(reportDir, { recursive: true, force: true })
    }
  },
}
