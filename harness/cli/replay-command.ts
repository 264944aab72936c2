import { firstDifference } from '../oracle/compare.ts'
import { unifiedDiff } from '../oracle/diff.ts'
import { type Projection, parseProjection } from '../projection/projection.ts'
import type { Scenario } from '../scenario/types.ts'
import { runnersFor, type Runners } from '../runners/by-host.ts'
import { onHost, withOverrides } from '../scenario/overrides.ts'
import { CURRENT_HOST, parseHost, type Host } from '../hosts/host.ts'
import { parseToken, type ReplayToken } from '../token.ts'
import type { Command } from './command.ts'
import { OPTIONS, readHosts, readTimeout } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { checkReplayable } from './token-check.ts'
import { EXIT, InputError, UsageError } from './usage-error.ts'
import type { SystemOutput } from '../runtime/output-capture.ts'
import { printedHeading, printedLines } from '../report/present.ts'

/** One replayed token: what `--json` prints for it. */
interface Replayed {
  token: string
  hash: string
  schedule: string[]
  projection: Projection
  /** What the system printed (never printed raw: on stderr, under a heading, or in the JSON); absent when nothing. */
  output?: SystemOutput
}

/** A token read and checked against its scenario, ready to run. */
interface Resolved {
  text: string
  token: ReplayToken
  scenario: Scenario
  /** Where it replays. */
  host: Host
}

/** The host a token replays on: `--host` when given, else the host the token names, else this process. */
function hostFor(token: ReplayToken, given: Host | undefined): Host {
  return given ?? (token.host === undefined ? CURRENT_HOST : parseHost(token.host))
}

/** Reads a token, finds its scenario among `scenarios` and checks its order on its host; throws when either is wrong. */
async function resolveToken(text: string, scenarios: readonly Scenario[], runners: Runners, given: Host | undefined): Promise<Resolved> {
  const token = parseToken(text)
  const scenario = scenarios.find(candidate => candidate.name === token.scenario)
  if (!scenario) {
    throw new InputError([`no scenario named "${token.scenario}" (known: ${scenarios.map(candidate => candidate.name).join(', ')})`])
  }
  const host = hostFor(token, given)
  await checkReplayable(onHost(withOverrides(scenario, token), host), token.schedule, runners.of(host))
  return { text: text.trim(), token, scenario, host }
}

/** Runs the one interleaving a resolved token names, on its host (in this process for this very process's host). */
async function replay({ text, token, scenario, host }: Resolved, runners: Runners): Promise<Replayed> {
  const record = await runners.of(host).runOne(onHost(withOverrides(scenario, token), host), token.schedule)
  return { token: text, hash: record.hash, schedule: record.schedule, projection: parseProjection(record.json), ...record.systemOutput === undefined ? {} : { output: record.systemOutput } }
}

function pretty(projection: Projection): string {
  return `${JSON.stringify(projection, null, 2)}\n`
}

/** The text comparing two replays: both hashes, where they first differ, and the diff of their projections. */
function comparison(a: Replayed, b: Replayed): string {
  const lines = [`A: ${a.token}`, `   hash ${a.hash}`, `B: ${b.token}`, `   hash ${b.hash}`, '']
  const difference = firstDifference(a.projection, b.projection)
  if (difference === undefined) return `${[...lines, 'identical projections: the two interleavings give the same bytes'].join('\n')}\n`
  lines.push(`the projections differ, first in the ${difference.part} (${difference.kind}):`, '')
  return `${lines.join('\n')}\n${unifiedDiff('A', 'B', pretty(a.projection), pretty(b.projection))}`
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
    texts.forEach(text => parseToken(text))
    const timeoutMs = readTimeout(args)
    const given = readHosts(args)
    if (given !== undefined && given.length > 1) throw new UsageError('--hosts: replay runs on one host; give --host HOST')
    const scenarios = await scenariosFrom(args.values.get(OPTIONS.scenarios.name) ?? [])
    const runners = runnersFor({ workers: 1, timeoutMs })
    const replayed: Replayed[] = []
    try {
      const resolved: Resolved[] = []
      for (const text of texts) resolved.push(await resolveToken(text, scenarios, runners, given?.[0]))
      for (const entry of resolved) replayed.push(await replay(entry, runners))
    } finally {
      await runners.close()
    }
    const json = args.flags.has(OPTIONS.json.name)
    const [a, b] = replayed as [Replayed, Replayed | undefined]
    if (b === undefined) {
      cli.stdout.write(json ? `${JSON.stringify(a)}\n` : `${pretty(a.projection)}hash: ${a.hash}\n`)
      if (!json && a.output !== undefined) {
        const printed = { interleavings: [a.token], chunks: a.output.chunks, omitted: a.output.omitted }
        cli.stderr.write([printedHeading(printed), ...printedLines(printed).map(line => `  ${line}`)].map(line => `${line}\n`).join(''))
      }
      return EXIT.ok
    }
    const identical = a.hash === b.hash
    if (json) {
      cli.stdout.write(`${JSON.stringify({ a, b, identical, diff: identical ? '' : unifiedDiff('A', 'B', pretty(a.projection), pretty(b.projection)) })}\n`)
    } else {
      cli.stdout.write(comparison(a, b))
    }
    // Two interleavings that give different bytes are a finding, as a divergence is in a sweep.
    return identical ? EXIT.ok : EXIT.failed
  },
}
