/**
 * The bench's dsh 0.1.1-rc.2 section, in a Node 22 process (dsh's runtime:
 * its packages need Node 22): one interleaving of the unmodified ACP
 * application (`cordis.snapshot.yml` of the built workspace's
 * `examples/acp-agent`, its text-turn snapshot served by `dsh-llm-replay`)
 * against the workspace's own loader booting the same configuration and
 * running the same turn, with the throughput's breakdown by phase and owner.
 * Started by `main.ts` as `<node22> --import tsx bench/workspace-child.ts
 * <workspace> [--quick]`; prints the figures as one JSON line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureRealApp } from './real-app.ts'

process.setSourceMapsEnabled(false)
const [tree, flag] = process.argv.slice(2)
if (tree === undefined) throw new Error('usage: workspace-child.ts <workspace> [--quick]')
const app = join(tree, 'examples/acp-agent')
const dir = mkdtempSync(join(tmpdir(), 'loadrace-bench-'))
const file = join(dir, 'dsh-text-turn.yml')
writeFileSync(file, [
  'name: dsh-text-turn',
  'target: dsh',
  'app: entries',
  `entries: ${join(app, 'cordis.snapshot.yml')}`,
  `snapshot: ${join(app, 'tests/snapshots/text-turn')}`,
  'budget: 24',
  'expect:',
  '  outcome: completed',
  '',
].join('\n'))
const figures = await measureRealApp(file, { quick: flag === '--quick', onStep: text => process.stderr.write(`  ${text}\n`) })
process.stdout.write(`${JSON.stringify({ ...figures, file: 'build/dsh/deepseek-harness/examples/acp-agent/cordis.snapshot.yml, tests/snapshots/text-turn' })}\n`)
