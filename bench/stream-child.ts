/**
 * One stream of the scale-out measurement: a process that sweeps one
 * scenario on command, with the runner `loadrace sweep --workers <n>` uses
 * (`sweep`) or with a pool of `<n>` worker processes whatever `<n>` is
 * (`pool`: for one, the control that runs the interleavings in a worker
 * process with this process coordinating, as `--workers 2` does for two). Started by `scale-out.ts` as
 * `node --import tsx bench/stream-child.ts <scenario file> <workers> <interleavings> [sweep|pool]`.
 *
 * It loads the scenario, plans `interleavings` distinct schedules (seeded
 * random over the declared space; the scenario's own `budget:` lifted), warms
 * the runner up (every worker loads the scenario and runs some), and prints
 * `ready`. Each `go` line on stdin then runs a fifth of the plan untimed for
 * each process that runs interleavings (two fifths for two workers) — the
 * processes have sat idle while other configurations ran, and the first
 * interleavings after a rest run slower; a sweep's workers never rest — then
 * the whole plan, and answers with one JSON line: wall and CPU seconds (every
 * thread of this process and of its worker processes) and the completion time
 * of every interleaving, in ms after the timed part began. `end` (or the end
 * of stdin) closes the runner and exits.
 */
import { createInterface } from 'node:readline'
import { CURRENT_HOST } from '../harness/hosts/host.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import { planFor } from '../harness/explore/plan.ts'
import { runnersFor } from '../harness/runners/by-host.ts'
import { workerPool } from '../harness/runners/worker-pool.ts'
import { treeCpuNow } from './process-tree.ts'
import type { StreamReply } from './scale-out.ts'

process.setSourceMapsEnabled(false)
const [file, workers, count, kind = 'sweep'] = process.argv.slice(2)
if (file === undefined || workers === undefined || count === undefined || (kind !== 'sweep' && kind !== 'pool')) {
  throw new Error('usage: stream-child.ts <scenario file> <workers> <interleavings> [sweep|pool]')
}
const scenario = { ...await loadScenario(file), budget: undefined }
const { schedules } = planFor(scenario, { strategy: 'random', budget: Number(count), seed: '0' })
const runners = runnersFor({ workers: Number(workers) })
const runner = kind === 'pool' ? workerPool({ size: Number(workers) }) : runners.of(CURRENT_HOST)
await runner.runAll(scenario, schedules.slice(0, Math.min(schedules.length, 10 * Number(workers))), () => {})
// Every process that runs interleavings runs as many untimed: a fifth of the plan each (with two workers, two fifths in all).
const warmUp = schedules.slice(0, Math.min(schedules.length, Math.ceil(schedules.length / 5) * Number(workers)))
process.stdout.write('ready\n')

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'go') break
  await runner.runAll(scenario, warmUp, () => {})
  const completions: number[] = []
  const started = performance.now()
  const cpuStarted = treeCpuNow()
  await runner.runAll(scenario, schedules, () => { completions.push(performance.now() - started) })
  const reply: StreamReply = { seconds: (performance.now() - started) / 1000, cpuSeconds: (treeCpuNow() - cpuStarted) / 1000, completions }
  process.stdout.write(`${JSON.stringify(reply)}\n`)
}
await runner.close()
await runners.close()
