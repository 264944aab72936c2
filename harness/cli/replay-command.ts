import { discoverSpace } from '../sweep/explore.ts'
import { inProcessRunner, runRecord } from '../sweep/runner.ts'
import { withOverrides } from '../sweep/sweep.ts'
import { parseToken } from '../token.ts'
import type { Command } from './command.ts'
import { OPTIONS, readTimeout } from './options.ts'
import { scenariosFrom } from './scenarios.ts'
import { EXIT, InputError, UsageError } from './usage-error.ts'

/** `loadrace replay TOKEN`: reruns one interleaving in this process and prints its projection and hash. */
export const replayCommand: Command = {
  spec: {
    name: 'replay',
    summary: 'rerun the one interleaving a replay token names and print its projection',
    synopsis: 'replay TOKEN [--json] [--scenarios PATH]… [--timeout MS]',
    description: [
      'A token (as reports print it) names the scenario, the variant, the target and the exact order of operations: '
        + '<scenario>@<variant>[+<target>]:<op>,<op>,…  The scenario is found by name among the scenario files, the '
        + 'token\'s variant and target are applied, and the interleaving runs once, in this process. The projection '
        + '(everything model-facing) is printed as pretty JSON, then its sha256 hash: the same hash a report lists.',
    ],
    operands: [{ name: 'TOKEN', help: 'a replay token, e.g. ci-flake@canonical:tool-todo,tool-subagent' }],
    options: [OPTIONS.json, OPTIONS.scenarios, OPTIONS.timeout],
    maxOperands: 1,
  },
  async run(args, cli) {
    const text = args.operands[0]
    if (text === undefined) throw new UsageError('missing TOKEN (see loadrace replay --help)')
    const token = parseToken(text)
    const timeoutMs = readTimeout(args)
    const scenarios = await scenariosFrom(args.values.get(OPTIONS.scenarios.name) ?? [])
    const original = scenarios.find(scenario => scenario.name === token.scenario)
    if (!original) {
      throw new InputError([`no scenario named "${token.scenario}" (known: ${scenarios.map(scenario => scenario.name).join(', ')})`])
    }
    const scenario = withOverrides(original, token)
    const ops = (await discoverSpace(scenario, inProcessRunner({ timeoutMs }))).chains.flatMap(chain => chain.ops)
    const stranger = token.schedule.find(op => !ops.includes(op))
    if (stranger !== undefined) {
      throw new InputError([`operation "${stranger}" is not an operation of scenario "${original.name}" (operations: ${ops.join(', ')})`])
    }
    const record = await runRecord(scenario, token.schedule, 0, timeoutMs)
    const projection: unknown = JSON.parse(record.json)
    if (args.flags.has(OPTIONS.json.name)) {
      cli.stdout.write(`${JSON.stringify({ token: text.trim(), hash: record.hash, schedule: record.schedule, projection })}\n`)
    } else {
      cli.stdout.write(`${JSON.stringify(projection, null, 2)}\nhash: ${record.hash}\n`)
    }
    return EXIT.ok
  },
}
