import { replayCommand, replayTargets, resultOf } from '../present.ts'
import type { Reporter, Sink } from '../reporter.ts'
import type { ScenarioReport } from '../../judge/scenario-report.ts'

/** A workflow command's message: `%`, carriage returns and line feeds encoded. */
export function commandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** A workflow command's property value: the message encoding, plus `:` and `,`. */
export function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/**
 * The `::error file=…,title=…::…` line that makes GitHub annotate the
 * scenario file of a failed scenario: its problems and how to replay it.
 */
export function githubAnnotation(scenario: ScenarioReport): string {
  const replay = replayTargets(scenario)[0]
  const message = [...scenario.problems, ...(replay === undefined ? [] : [`replay: ${replayCommand(replay.token, scenario.file)}`])]
  const title = scenario.harnessFault === undefined
    ? `loadrace: ${scenario.name} is ${scenario.verdict}`
    : `loadrace: harness fault in ${scenario.name} (loadrace failed to hold ${scenario.harnessFault.resource}; not a verdict about the system)`
  return `::error file=${commandProperty(scenario.file)},title=${commandProperty(title)}::${commandData(message.join('\n') || `verdict ${scenario.verdict}`)}\n`
}

/** The reporter that prints a GitHub `::error` annotation on `out` for each failed scenario, as soon as it is judged. */
export function githubAnnotationsReporter(out: Sink): Reporter {
  return {
    onScenarioJudged(entry) {
      if (resultOf(entry) === 'failed') out.write(githubAnnotation(entry))
    },
  }
}
