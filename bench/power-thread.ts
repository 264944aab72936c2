/**
 * A worker thread of the power section: loads both planted scenarios and runs
 * the trials it is sent, one at a time. Started through `thread-bootstrap.js`.
 */
import { parentPort } from 'node:worker_threads'
import { loadScenario } from '../harness/scenario/load.ts'
import type { Scenario } from '../harness/scenario/scenario.ts'
import type { BugId } from './figures.ts'
import { BUG_IDS, PLANTED } from './planted.ts'
import type { ThreadReply } from './threads.ts'
import { TrialRunner, type TrialJob, type TrialOutcome } from './trials.ts'

const port = parentPort
if (!port) throw new Error('bench/power-thread.ts runs only as a worker thread')

const scenarios = new Map<BugId, Scenario>()
for (const bug of BUG_IDS) scenarios.set(bug, await loadScenario(PLANTED[bug].file))
const runner = new TrialRunner(scenarios)

port.on('message', ({ index, job }: { index: number, job: TrialJob }) => {
  runner.run(job).then(
    (result): ThreadReply<TrialOutcome> => ({ ok: true, index, result }),
    (error: unknown): ThreadReply<TrialOutcome> => ({ ok: false, index, message: error instanceof Error ? error.message : String(error) }),
  ).then(reply => port.postMessage(reply))
})
