/**
 * The steps a README section shows, in order: files to write (a code block
 * whose info string names `file=PATH`), commands to run (each line of a `sh`
 * block; `# exit N` says the exit code it must end with, 0 otherwise), and
 * the output a command must print (a `text` block right after its command:
 * every non-empty line, in order, must be a line of what it printed).
 */

/** One step of a README section. */
export type Step =
  | { kind: 'file', path: string, content: string }
  | { kind: 'command', line: string, exit: number, output: string[] }

/** The text of the `## heading` section, up to the next `## ` heading. */
export function sectionOf(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`README has no section "## ${heading}"`)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end < 0 ? undefined : end)
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```$/gm

/** The steps of a section. */
export function stepsOf(section: string): Step[] {
  const steps: Step[] = []
  for (const [, info, body] of section.matchAll(FENCE)) {
    const [language] = info!.trim().split(/\s+/)
    const file = /(?:^|\s)file=(\S+)/.exec(info!)?.[1]
    if (file !== undefined) {
      steps.push({ kind: 'file', path: file, content: body! })
    } else if (language === 'sh') {
      for (const text of body!.split('\n')) {
        const line = text.replace(/\s+#.*$/, '').trim()
        if (line === '' || line.startsWith('#')) continue
        const exit = /#\s*exit (\d+)/.exec(text)?.[1]
        steps.push({ kind: 'command', line, exit: exit === undefined ? 0 : Number(exit), output: [] })
      }
    } else if (language === 'text') {
      const last = steps.at(-1)
      if (last?.kind !== 'command') throw new Error(`a text block follows no command:\n${body}`)
      last.output = body!.split('\n').map(line => line.trimEnd()).filter(line => line !== '')
    }
  }
  return steps
}

/** The shown lines missing from `printed` (as whole lines, in order); empty when every one is there. */
export function missingLines(shown: readonly string[], printed: string): string[] {
  const lines = printed.split('\n').map(line => line.trimEnd())
  let at = 0
  const missing: string[] = []
  for (const line of shown) {
    const found = lines.indexOf(line, at)
    if (found < 0) missing.push(line)
    else at = found + 1
  }
  return missing
}
