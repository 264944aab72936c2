import type { Report } from '../../harness/report/sweep-report.ts'
import type { ScenarioReport } from '../../harness/judge/scenario-report.ts'

/** Hand-built reports for the report renderer specs. */

/** A tool name that is an HTML element if anything forgets to escape it. */
export const HOSTILE_TOOL = '<img src=x onerror=alert(1)>'

/** A tool description with every character that breaks Markdown tables, code spans or XML. */
export const HOSTILE_DESCRIPTION = 'splits | cells, ``` fences `code` and\nlines & <b>tags</b> \u0001 "quotes"'

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)

function scenario(fields: Partial<ScenarioReport> & Pick<ScenarioReport, 'name'>): ScenarioReport {
  return {
    file: `scenarios/${fields.name}.yml`,
    variant: 'default',
    target: 'reference',
    plugins: 4,
    space: '24',
    discovered: [],
    planned: fields.explored ?? 24,
    explored: 24,
    strategy: 'exhaustive',
    guarantee: 'exhaustive',
    verdict: 'deterministic',
    passed: true,
    outcome: 'completed',
    distinctOutputs: 1,
    outputs: [{ hash: HASH_A, count: 24, first: 0, token: `lr1:${fields.name}:0123`, tools: ['alpha', 'beta'] }],
    divergence: null,
    hosts: ['current'],
    golden: 'match',
    expected: { outcome: 'completed', deterministic: true },
    problems: [],
    durationMs: 125,
    ...fields,
  }
}

export const deterministic = scenario({ name: 'default-order' })

export const DIVERGENCE_DIFF = [
  '--- before',
  '+++ after',
  '@@ -1,3 +1,3 @@',
  ' {"tools": [',
  `-  {"name": "alpha", "description": ${JSON.stringify(HOSTILE_DESCRIPTION)}},`,
  `+  {"name": ${JSON.stringify(HOSTILE_TOOL)}},`,
  '````',
  '',
].join('\n')

export const divergent = scenario({
  name: 'registration-race',
  plugins: 4,
  space: '20922789888000',
  explored: 37,
  strategy: 'sca',
  guarantee: 't-way:2',
  verdict: 'divergent',
  passed: false,
  outcome: 'completed',
  distinctOutputs: 2,
  outputs: [
    { hash: HASH_A, count: 20, first: 1, token: 'lr1:registration-race:alpha,beta,gamma,delta', tools: ['alpha', HOSTILE_TOOL] },
    { hash: HASH_B, count: 17, first: 2, token: "lr1:registration-race:gamma,alpha,beta,delta'quote", tools: [HOSTILE_TOOL, 'alpha'] },
  ],
  divergence: {
    part: 'request',
    kind: 'order',
    blame: ['alpha', 'gamma'],
    tokens: ['lr1:registration-race:alpha,gamma,beta,delta', 'lr1:registration-race:gamma,alpha,beta,delta'],
    diff: DIVERGENCE_DIFF,
    firstDifference: `request[0].tools[0].name:\n-  "alpha"\n+  ${JSON.stringify(HOSTILE_TOOL)}`,
    moved: [{ kind: 'tool', name: 'alpha', owner: 'alpha' }, { kind: 'tool', name: HOSTILE_TOOL, owner: 'gamma' }],
    sections: '--- before\n+++ after\n@@ -1,2 +1,2 @@\n-[115] workflow (alpha)\n [115] cordis (gamma)\n+[115] workflow (alpha)\n',
    swaps: {
      plugins: ['alpha', 'beta', 'gamma', 'delta'],
      changed: [['alpha', 'gamma'], ['beta', 'gamma']],
    },
  },
  golden: 'mismatch',
  goldenDiff: '--- golden\n+++ run\n@@ -1 +1 @@\n-alpha\n+gamma\n',
  problems: ['expected deterministic bytes, got 2 distinct outputs', `tool description: ${HOSTILE_DESCRIPTION}`],
  durationMs: 4321,
})

export const uncontrolled = scenario({
  name: 'clock | `reads`',
  target: 'dsh',
  verdict: 'uncontrolled',
  passed: false,
  outcome: 'mixed',
  distinctOutputs: 2,
  explored: 5,
  space: '120',
  strategy: 'random',
  guarantee: 'sampled',
  outputs: [
    { hash: HASH_A, count: 3, first: 3, token: 'lr1:clock:a', tools: ['alpha'] },
    { hash: HASH_B, count: 2, first: 4, token: 'lr1:clock:b', tools: ['alpha'] },
  ],
  golden: 'none',
  problems: ['the same interleaving produced different bytes on a rerun'],
})

export const stuck = scenario({
  name: 'never-settles',
  verdict: 'stuck',
  passed: false,
  outcome: 'stuck',
  outputs: [{ hash: HASH_A, count: 24, first: 5, token: 'lr1:never-settles:x', tools: [] }],
  golden: 'none',
  problems: ['plugin omega never finished loading'],
})

const { passed: _passed, ...ran } = scenario({ name: 'acp-only' })

/** A skipped scenario: verdict `skipped` with its reason, and no `passed`. */
export const skipped: ScenarioReport = {
  ...ran,
  target: 'dsh',
  verdict: 'skipped',
  outcome: 'none',
  space: '0',
  explored: 0,
  distinctOutputs: 0,
  outputs: [],
  golden: 'none',
  skipped: 'the dsh target has no acp-agent app',
  durationMs: 0,
}

/** A complete report with one scenario of each kind. */
export function sampleReport(overrides: Partial<Report> = {}): Report {
  const scenarios = [deterministic, divergent, uncontrolled, stuck, skipped]
  return {
    tool: 'loadrace',
    report: 'sweep',
    version: '0.1.0',
    complete: true,
    options: { strategy: 'auto', seed: '42', budget: 1000, depth: null, strength: null, shard: null, workers: 2, hosts: null },
    scenarios,
    summary: { scenarios: 5, passed: 1, failed: 3, skipped: 1, interleavings: 90, durationMs: 5000 },
    ...overrides,
  }
}

/** A green report (one deterministic scenario). */
export function passingReport(): Report {
  return sampleReport({
    scenarios: [deterministic],
    summary: { scenarios: 1, passed: 1, failed: 0, skipped: 0, interleavings: 24, durationMs: 125 },
  })
}
