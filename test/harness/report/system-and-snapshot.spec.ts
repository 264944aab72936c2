/**
 * What every report says of the system that ran (its packages, versions and
 * folders) and of a dsh snapshot (its status, sides, blame and fix).
 */
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../../harness/report/markdown.ts'
import { renderHtml } from '../../../harness/report/html.ts'
import { renderJson } from '../../../harness/report/json.ts'
import { scenarioBlock } from '../../../harness/report/terminal.ts'
import { sweepFooter } from '../../../harness/report/summary.ts'
import { systemLine, systemsOf } from '../../../harness/report/system.ts'
import { assembleReport } from '../../../harness/sweep/sweep.ts'
import type { ScenarioReport } from '../../../harness/judge/scenario-report.ts'
import type { SystemDescription } from '../../../harness/system/system.ts'
import { deterministic } from '../../support/report-entries.ts'

const WORKSPACE: SystemDescription = {
  own: false,
  packages: [
    { name: '@deepseek-ai/cordis', version: '4.0.1', path: '/ws/vendor/cordis' },
    { name: '@deepseek-ai/cordis-plugin-loader', version: '1.0.2', path: '/ws/vendor/loader' },
    { name: '@deepseek-ai/cordis-plugin-include', version: '1.0.6', path: '/ws/vendor/include' },
    { name: '@deepseek-ai/dsh-llm', version: '0.1.1-rc.2', path: '/ws/packages/llm/llm' },
    { name: '@deepseek-ai/dsh-session', version: '0.1.1-rc.2', path: '/ws/packages/core/session' },
    { name: '@deepseek-ai/dsh-tools', version: '0.1.1-rc.2', path: '/ws/packages/core/tools' },
  ],
}

const pinsOne: ScenarioReport = {
  ...deterministic,
  name: 'dsh-pty-tools',
  target: 'dsh',
  verdict: 'divergent',
  distinctOutputs: 2,
  expected: { outcome: 'completed', deterministic: false },
  runtime: { node: 'v22.23.5', shims: [], system: WORKSPACE },
  snapshot: {
    folder: 'tests/snapshots/pty-tools',
    status: 'pins-one',
    expected: 'pins-one',
    matching: { interleavings: 5, outputs: 1, token: 'dsh-pty-tools@canonical+dsh:a,b' },
    mismatching: { interleavings: 19, outputs: 1, token: 'dsh-pty-tools@canonical+dsh:b,a' },
    differs: [{ file: 'system-prompt.expected.md', diff: '--- pinned\n+++ this\n@@ -1 +1 @@\n-pty\n+jobs\n' }],
    blame: ['base.pty', 'base.acp-agent'],
    tokens: ['dsh-pty-tools@canonical+dsh:a,b', 'dsh-pty-tools@canonical+dsh:b,a'],
    moved: [{ kind: 'section', name: 'tool:jobs', owner: 'base.acp-agent', plugin: 'tool-jobs' }, { kind: 'section', name: 'tool:pty', owner: 'base.tool-terminal' }],
    sections: '--- pinned\n+++ the other load order\n-[106] tool:pty (base.tool-terminal)\n [106] tool:jobs (base.acp-agent › tool-jobs)\n+[106] tool:pty (base.tool-terminal)\n',
    fix: 'give tool:pty (base.tool-terminal) and tool:jobs (base.acp-agent › tool-jobs) distinct order values',
  },
}

const report = assembleReport([pinsOne, { ...deterministic, runtime: { node: 'v20.20.2', shims: [] } }], { strategy: 'auto', seed: '0', budget: 24, workers: 2 }, true, 1000)

describe('the system under test, in every report', () => {
  it('is one terminal line per system a dsh scenario ran on: whose, cordis and its plugins, then the dsh packages, each group with its folder', () => {
    expect(systemsOf(report)).toEqual([{ system: WORKSPACE, scenarios: ['dsh-pty-tools'], named: true }])
    expect(systemLine(WORKSPACE, '/ws')).toBe("the project's cordis 4.0.1, cordis-plugin-loader 1.0.2, cordis-plugin-include 1.0.6 (vendor), 3 dsh packages 0.1.1-rc.2 (packages)")
    expect(sweepFooter(report, [])).toContain('\nsystem under test: the project\'s cordis 4.0.1')
    // A reference scenario on loadrace's own system is not a line of its own.
    expect(sweepFooter(assembleReport([deterministic], { strategy: 'auto', seed: '0', budget: 24, workers: 1 }, true, 1), [])).not.toContain('system under test')
  })

  it('is a table of every package, version and folder in report.md and report.html, and runtime.system in report.json', () => {
    const markdown = renderMarkdown(report)
    expect(markdown).toContain("**System under test**\n\nThe project's packages, for dsh-pty-tools:\n\n| Package | Version | Folder |")
    expect(markdown).toContain('| @deepseek-ai/cordis | 4.0.1 | `/ws/vendor/cordis` |')
    const html = renderHtml(report)
    expect(html).toContain('<h2>System under test</h2>')
    expect(html).toContain('<td><code>@deepseek-ai/dsh-llm</code></td><td>0.1.1-rc.2</td><td><code>/ws/packages/llm/llm</code></td>')
    const json = JSON.parse(renderJson(report)) as { scenarios: ScenarioReport[] }
    expect(json.scenarios[0]!.runtime).toEqual({ node: 'v22.23.5', shims: [], system: WORKSPACE })
  })
})

describe('a snapshot finding', () => {
  it('is one line under a scenario that passed, naming the sides, the blame and what it moves', () => {
    expect(scenarioBlock(pinsOne, 14)).toEqual([
      expect.stringMatching(/^✓ {2}dsh-pty-tools/),
      '    ran on Node v22.23.5 (host current)',
      '    snapshot tests/snapshots/pty-tools pins one load order: 5 of 24 interleavings give the pinned files, blame base.pty ↔ base.acp-agent, moving section tool:jobs (base.acp-agent › tool-jobs) and section tool:pty (base.tool-terminal) (as expected)',
    ])
  })

  it('under a failed scenario gives the blame, both replay commands, the sections, the fix and the diff from the pinned file', () => {
    const failed: ScenarioReport = { ...pinsOne, passed: false, problems: ['snapshot tests/snapshots/pty-tools: expected it to hold, but it pins one load order'], snapshot: { ...pinsOne.snapshot!, expected: 'holds' } }
    const lines = scenarioBlock(failed, 14).join('\n')
    expect(lines).toContain('    snapshot blame: base.pty ↔ base.acp-agent: swapping them turns the pinned load order into one the snapshot does not pin')
    expect(lines).toContain("    replay (gives the pinned files): npx loadrace replay 'dsh-pty-tools@canonical+dsh:a,b' --scenarios scenarios/default-order.yml")
    expect(lines).toContain('    system prompt sections (pinned → the other load order):\n      --- pinned')
    expect(lines).toContain('    fix: give tool:pty (base.tool-terminal) and tool:jobs (base.acp-agent › tool-jobs) distinct order values')
    expect(lines).toContain('    diff from the pinned system-prompt.expected.md (pinned → dsh-pty-tools@canonical+dsh:b,a):')
  })

  it('is in report.json whole', () => {
    const json = JSON.parse(renderJson(report)) as { scenarios: ScenarioReport[] }
    expect(json.scenarios[0]!.snapshot).toEqual(pinsOne.snapshot)
  })
})
