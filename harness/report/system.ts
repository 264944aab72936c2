/**
 * What a report says of the systems the sweep ran: each distinct set of
 * packages (cordis, loader, include, schemastery and the target's dsh
 * packages, with version and real folder) and the scenarios that ran on it,
 * so a reader knows what was proven.
 */
import { relative, sep } from 'node:path'
import type { SystemDescription } from '../system/system.ts'
import type { Report } from './sweep-report.ts'
import { findTarget } from '../targets/registry.ts'

/** One system the sweep ran on, and the scenarios that ran on it, in report order. */
export interface SystemUsed {
  system: SystemDescription
  scenarios: string[]
  /** Whether a scenario on it ran on a target whose system a report names (loadrace's own reference system is only named when it matters). */
  named: boolean
}

/** The distinct systems of a report's scenarios (those that ran). */
export function systemsOf(report: Report): SystemUsed[] {
  const used = new Map<string, SystemUsed>()
  for (const scenario of report.scenarios) {
    const system = scenario.runtime?.system
    if (system === undefined) continue
    const key = JSON.stringify(system)
    const entry = used.get(key) ?? { system, scenarios: [], named: false }
    entry.scenarios.push(scenario.name)
    entry.named ||= findTarget(scenario.target)?.namesSystem === true
    used.set(key, entry)
  }
  return [...used.values()]
}

/** A folder as the working directory sees it: relative when inside it. */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const inside = relative(cwd, path)
  return inside === '' ? '.' : inside.startsWith(`..${sep}`) || inside === '..' ? path : inside
}

/** The deepest folder holding every one of `paths`. */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map(path => path.split(sep))
  const first = split[0] ?? []
  let depth = 0
  while (depth < first.length && split.every(parts => parts[depth] === first[depth])) depth++
  return first.slice(0, depth).join(sep) || sep
}

/** The packages of one group as a phrase: each `name version`, or `N dsh packages version` when they share one; then their folder. */
function groupPhrase(items: SystemDescription['packages'], plural: string, cwd: string | undefined): string {
  const versions = new Set(items.map(item => item.version))
  const names = items.length > 2 && versions.size === 1
    ? `${items.length} ${plural} ${items[0]!.version}`
    : items.map(item => `${item.name.replace(/^@deepseek-ai\//, '')} ${item.version}`).join(', ')
  return `${names} (${shownPath(commonFolder(items.map(item => item.path)), cwd)})`
}

/** One line naming a system's packages: whose they are, cordis and its plugins with their versions, then the target's packages, each group with its folder. */
export function systemLine(system: SystemDescription, cwd?: string): string {
  const whose = system.own ? "loadrace's own" : "the project's"
  const core = system.packages.filter(item => /^@deepseek-ai\/(cordis|schemastery)/.test(item.name))
  const others = system.packages.filter(item => !core.includes(item))
  return [`${whose} ${groupPhrase(core, 'packages', cwd)}`, ...others.length > 0 ? [groupPhrase(others, 'dsh packages', cwd)] : []].join(', ')
}

/** The terminal's lines: one per system a scenario ran on whose target's system a report names (dsh's). */
export function systemTerminalLines(report: Report, cwd?: string): string[] {
  return systemsOf(report).filter(used => used.named).map(used => `system under test: ${systemLine(used.system, cwd)}`)
}
