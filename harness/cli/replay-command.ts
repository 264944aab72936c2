import { printedHeading, printedLines } from '../report/present.ts'
import { compareReplays, parseTokens, prettyProjection, replay, type Replayed } from '../sweep/replay.ts'
import type { Command } from './command.ts'
import { OPTIONS, readSettings } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { EXIT, UsageError } from './usage-error.ts'

/** The text comparing two replays: both hashes, where they first differ, and the diff of their projections. */
function comparison(a: Replayed, b: Replayed): string {
  const lines = [`A: ${a.token}`, `   hash ${a.hash}`, `B: ${b.token}`, `   hash ${b.hash}`, '']
  const { difference, diff } = compareReplays(a, b)
  if (difference === undefined) return `${[...lines, 'identical projections: the two interleavings give the same bytes'].join('\n')}\n`
  lines.push(`the projections differ, first in the ${difference.part} (${difference.kind}):`, '')
  return `${lines.join('\n')}\n${diff}`
}

/** `loadrace replay TOKEN [TOKEN]`: reruns interleavings in this process and prints a projection and its hash, or how two differ. */
export const replayCommand: Command = {
  spec: {
    name: 'replay',
    summary: 'rerun the interleaving a replay token names and print its projection, or the diff of two',
    synopsis: 'replay TOKEN [TOKEN] [--scenarios PATH]… [--host HOST] [--json] [--timeout MS]',
    description: [
      'A token (as reports print it) names the scenario, the variant, the target and the exact order of all the '
        + 'scenario\'s operations: <scenario>@<variant>[+<target>][~<host>]:<op>,<op>,…  The scenario is found by name among the '
        + 'scenario files (--scenarios; the printed replay commands name the file), the token\'s variant and target are '
        + 'applied, and the interleaving runs once: on the host the token names (~node22, ~locale:tr-TR, …; --host '
        + 'overrides it), in this process when it names none. The projection (everything model-facing) is printed '
        + 'as pretty JSON, then its sha256 hash: the same hash a report lists. An order that names an operation the '
        + 'scenario does not have, or leaves one out, is rejected with the operations allowed.',
      'With two tokens both interleavings run and the output says where their projections first differ and shows the '
        + 'unified diff (A: the first token, B: the second); --json prints {a, b, identical, diff}. Exit 0 when the two '
        + 'give the same bytes, 1 when they differ.',
    ],
    operands: [
      { name: 'TOKEN', help: 'a replay token, e.g. ci-flake@canonical:tool-todo,tool-subagent' },
      { name: 'TOKEN', help: 'a second token: compare the two projections' },
    ],
    options: [OPTIONS.json, OPTIONS.scenarios, OPTIONS.host, OPTIONS.timeout],
    maxOperands: 2,
  },
  async run(args, cli) {
    const texts = args.operands
    if (texts.length === 0) throw new UsageError('missing TOKEN (see loadrace replay --help)')
    parseTokens(texts)
    const settings = readSettings(args, replayCommand.spec, cli)
    const scenarios = await scenariosFrom(args.values.get(OPTIONS.scenarios.name) ?? [])
    const replayed = await replay(texts, scenarios, settings)
    const json = args.flags.has(OPTIONS.json.name)
    const [a, b] = replayed as [Replayed, Replayed | undefined]
    if (b === undefined) {
      cli.stdout.write(json ? `${JSON.stringify(a)}\n` : `${prettyProjection(a.projection)}hash: ${a.hash}\n`)
      if (!json && a.output !== undefined) {
        const printed = { interleavings: [a.token], chunks: a.output.chunks, omitted: a.output.omitted }
        cli.stderr.write([printedHeading(printed), ...printedLines(printed).map(line => `  ${line}`)].map(line => `${line}\n`).join(''))
      }
      return EXIT.ok
    }
    const identical = a.hash === b.hash
    if (json) {
      cli.stdout.write(`${JSON.stringify({ a, b, identical, diff: identical ? '' : compareReplays(a, b).diff })}\n`)
    } else {
      cli.stdout.write(comparison(a, b))
    }
    // Two interleavings that give different bytes are a finding, as a divergence is in a sweep.
    return identical ? EXIT.ok : EXIT.failed
  },
}
