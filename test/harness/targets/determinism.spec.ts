import { describe, expect, it } from 'vitest'
import { Determinizer } from '../../../harness/targets/dsh/determinism.ts'

/** An environment whose ids and times count up from 1, as an interleaving's do. */
function environment() {
  let ids = 0
  let time = 0
  return { now: () => ++time, newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}` }
}

const spilled = (session: string, file: string) =>
  `(Omitted 781 bytes. Full formatted result stored at: {{workdir}}/spill/session-${session}/${file}-session_event_read.txt. Use read with offset/limit.)`

describe('Determinizer', () => {
  it('writes two runs that spilled under other random keys as the same bytes, keeping distinct keys distinct', () => {
    const first = new Determinizer(environment())
    const second = new Determinizer(environment())
    const a = [first.text(spilled('d8520725dc65', '4682f698a06d')), first.text(spilled('d8520725dc65', '9a0b1c2d3e4f'))]
    const b = [second.text(spilled('4f12b22ae470', '6ebb1ffc7c16')), second.text(spilled('4f12b22ae470', '0123456789ab'))]
    expect(a).toEqual(b)
    expect(a[0]).not.toBe(a[1])
    expect(a[0]).toContain('/spill/session-000000000001/000000000002-session_event_read.txt')
  })

  it('rewrites a spill key the same way wherever it appears in one run, in the project\'s .spill folder as well', () => {
    const run = new Determinizer(environment())
    const local = run.text('{{cwd}}/.spill/session-aaaaaaaaaaaa/bbbbbbbbbbbb-out.txt')
    expect(local).toBe('{{cwd}}/.spill/session-000000000001/000000000002-out.txt')
    expect(run.text('see {{cwd}}/.spill/session-aaaaaaaaaaaa/bbbbbbbbbbbb-out.txt again')).toBe(`see ${local} again`)
  })

  it('leaves 12 hex digits that are not a spill file\'s place alone', () => {
    const run = new Determinizer(environment())
    expect(run.text('commit d8520725dc65 in /tmp/session-d8520725dc65/x')).toBe('commit d8520725dc65 in /tmp/session-d8520725dc65/x')
  })

  it('writes a hook result\'s measured duration as 0, as dsh\'s snapshot harness does, and only a hook result\'s', () => {
    const run = new Determinizer(environment())
    const result = { type: 'hook/result', time: 1796179253671, data: { turn: 1, point: 'PostToolUse', handlerId: 'claude-code:PostToolUse:1', durationMs: 200.001 } }
    expect(run.event(result)).toEqual({ type: 'hook/result', time: 1, data: { turn: 1, point: 'PostToolUse', handlerId: 'claude-code:PostToolUse:1', durationMs: 0 } })
    expect(result.data.durationMs).toBe(200.001)
    const other = { type: 'tool/result', time: 5, data: { durationMs: 12 } }
    expect(run.event(other)).toEqual({ type: 'tool/result', time: 2, data: { durationMs: 12 } })
  })
})
