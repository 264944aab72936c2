/**
 * One stream of the scale-out measurement: a process that sweeps one
 * scenario with the runner `loadrace sweep --workers <n>` uses, on command.
 * Started by `scale-out.ts` as
 * `node --import tsx bench/stream-child.ts <scenario file> <workers> <interleavings>`.
 *
 * It loads the scenario, plans `interleavings` distinct schedules (seeded
 * random over the declared space; the scenario's own `budget:` lifted), warms
 * the runner up (every worker loads the scenario and runs some), and prints
 * `ready`. Each `go` line on stdin then runs the whole plan once and answers
 * with one JSON line: wall and CPU seconds (every thread of the process) and
 * the completion time of every interleaving, in ms after `go`. `end` (or the
 * end of stdin) closes the runner and exits.
 */
import { createInterface } from 'node:readline'
import { CURRENT_HOST } from '../harness/hosts/host.ts'
import { loadScenario } from '../harness/scenario/load.ts'
import { planFor } from '../harness/explore/plan.ts'
import { runnersFor } from '../harness/runners/by-host.ts'
import { cpuNow } from './clock.ts'
import type { StreamReply } from './scale-out.ts'

process.setSourceMapsEnabled(false)
const [file, workers, count] = process.argv.slice(2)
if (file === undefined || workers === undefined || count === undefined) throw new Error('usage: stream-child.ts <scenario file> <workers> <interleavings>')
const scenario = { ...await loadScenario(file), budget: undefined }
const { schedules } = planFor(scenario, { strategy: 'random', budget: Number(count), seed: '0' })
const runners = runnersFor({ workers: Number(workers) })
const runner = runners.of(CURRENT_HOST)
await runner.runAll(scenario, schedules.slice(0, Math.min(schedules.length, 10 * Number(workers))), () => {})
process.stdout.write('ready\n')

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'go') break
  const completions: number[] = []
  const started = performance.now()
  const cpuStarted = cpuNow()
  await runner.runAll(scenario, schedules, () => { completions.push(performance.now() - started) })
  const reply: StreamReply = { seconds: (performance.now() - started) / 1000, cpuSeconds: (cpuNow() - cpuStarted) / 1000, completions }
  process.stdout.write(`${JSON.stringify(reply)}\n`)
}
await runners.close()
