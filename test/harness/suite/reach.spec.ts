import { describe, expect, it } from 'vitest'
import type { BootRecord } from '../../../harness/preload/protocol.js'
import type { CommandRun } from '../../../harness/suite/command-run.ts'
import { reachOf } from '../../../harness/suite/reach.ts'

/** The reach of a test run, counted from the boot records its runs wrote (vitest-boots.spec.ts has a real one). */

const boot = (over: Partial<BootRecord>): BootRecord => ({ pid: 1, thread: 0, boot: 1, argv: [], mode: 'row', configuration: 'c', requested: [], released: [], failedImports: [], ...over })
const run = (name: string, processes: BootRecord[], vitest?: CommandRun['vitest']): CommandRun => ({ name, exitCode: 0, signal: null, results: [], processes, log: '', durationMs: 0, ...vitest === undefined ? {} : { vitest } })

describe('the reach of a test run', () => {
  it('counts the boots of the plan\'s runs that followed a row, the tests that booted them, and why the others did not', () => {
    const natural = run('natural', [boot({ mode: 'natural' })], { projects: [{ project: 'a', reached: true }, { project: 'b/*', reached: false, why: 'a glob' }] })
    const rows = run('schedule-1', [
      boot({ row: ['x'], test: { file: 't.ts', name: 'one', kind: 'test' } }),
      boot({ row: ['x'], test: { file: 't.ts', name: 'one', kind: 'test' }, boot: 2 }),
      boot({ row: ['x'], test: { file: 't.ts', name: 'suite', kind: 'suite', concurrent: true } }),
      boot({ row: ['x'] }),
      boot({ unknown: true, configuration: 'other' }),
    ])
    expect(reachOf(natural, [rows])).toEqual({
      boots: 5, controlled: 4, tests: 3, ambiguous: 1,
      uncontrolled: [{ why: expect.stringContaining('did not boot in the natural run'), boots: 1 }],
      projects: [{ project: 'a', reached: true }, { project: 'b/*', reached: false, why: 'a glob' }],
    })
  })

  it('says nothing was controlled when the plan ran nothing but the natural run', () => {
    expect(reachOf(run('natural', [boot({ mode: 'natural' }), boot({ mode: 'natural' })]), [])).toMatchObject({ boots: 2, controlled: 0, uncontrolled: [{ boots: 2 }] })
  })
})
