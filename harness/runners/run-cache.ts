import type { Scenario } from '../scenario/scenario.ts'
import type { Schedule } from '../space/space.ts'
import { replayableSchedule, type InterleavingRecord, type Runner } from './runner.ts'

/**
 * Single runs of one scenario, memoised by schedule: minimisation, the swap
 * matrix and replays of divergent pairs often ask for the same interleaving.
 */
export class RunCache {
  private readonly runs = new Map<string, Promise<InterleavingRecord & { json: string }>>()
  /** Every run that finished, by the schedule its replay token names. */
  private readonly finished = new Map<string, InterleavingRecord & { json: string }>()
  count = 0

  constructor(private readonly runner: Runner, private readonly scenario: Scenario) {}

  private started(run: Promise<InterleavingRecord & { json: string }>): Promise<InterleavingRecord & { json: string }> {
    run.then(record => { this.finished.set(replayableSchedule(record).join(','), record) }, () => {})
    return run
  }

  run(schedule: Schedule): Promise<InterleavingRecord & { json: string }> {
    const key = schedule.join(',')
    let run = this.runs.get(key)
    if (!run) {
      this.count++
      run = this.started(this.runner.runOne(this.scenario, schedule))
      this.runs.set(key, run)
    }
    return run
  }

  /** Runs `schedule` afresh, bypassing the memo (to check that a schedule replays to the same bytes). */
  rerun(schedule: Schedule): Promise<InterleavingRecord & { json: string }> {
    this.count++
    return this.started(this.runner.runOne(this.scenario, schedule))
  }

  /**
   * Runs `schedule` afresh with loadrace's control of timers and clocks off,
   * the import order still held (`control: 'order-only'`): never memoised,
   * never taken for a controlled run.
   */
  orderOnly(schedule: Schedule): Promise<InterleavingRecord & { json: string }> {
    this.count++
    return this.runner.runOne(this.scenario, schedule, 'order-only')
  }

  async hash(schedule: Schedule): Promise<string> {
    return (await this.run(schedule)).hash
  }

  /** The last finished run whose replayable schedule is `schedule`, if any. */
  recorded(schedule: Schedule): InterleavingRecord | undefined {
    return this.finished.get(schedule.join(','))
  }
}
