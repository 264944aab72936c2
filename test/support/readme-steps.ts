/**
 * The steps a section of the documentation shows, in order: files to write
 * (a code block whose info string names `file=PATH`), commands to run (each
 * line of a `sh` block; `# exit N` says the exit code it must end with, 0
 * otherwise), and the output a command must print (a `text` block right
 * after the `sh` block of its command, with nothing but blank lines between
 * them: every non-empty line, in order, must be a line of what it printed; a
 * `text` block after prose illustrates and is not checked). And which
 * sections of the README and of the pages under `docs/` the adoption tests
 * follow, so that every command the documentation shows is run by one of
 * them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One step of a section. */
export type Step =
  | { kind: 'file', path: string, content: string }
  | { kind: 'command', line: string, exit: number, output: string[] }

/** The heading lines of a markdown text, with their level and position. */
function headings(text: string): { level: number, title: string, at: number }[] {
  const found: { level: number, title: string, at: number }[] = []
  let inFence = false
  let at = 0
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence
    const heading = inFence ? null : /^(#{1,6}) (.+)$/.exec(line)
    if (heading) found.push({ level: heading[1]!.length, title: heading[2]!, at })
    at += line.length + 1
  }
  return found
}

/** The text of the section whose heading is `heading` (any level), up to the next heading of the same or a higher level. */
export function sectionOf(page: string, heading: string): string {
  const all = headings(page)
  const index = all.findIndex(candidate => candidate.title === heading)
  if (index < 0) throw new Error(`no section "${heading}" in:\n${page.slice(0, 200)}`)
  const start = all[index]!
  const end = all.slice(index + 1).find(candidate => candidate.level <= start.level)
  return page.slice(start.at, end?.at)
}

/** The same section without its subsections: the text up to its first sub-heading. */
export function ownTextOf(page: string, heading: string): string {
  const section = sectionOf(page, heading)
  const sub = headings(section).slice(1)[0]
  return sub === undefined ? section : section.slice(0, sub.at)
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```$/gm

/** The steps of a section. */
export function stepsOf(section: string): Step[] {
  const steps: Step[] = []
  let shEnd = -1
  for (const match of section.matchAll(FENCE)) {
    const [whole, info, body] = match
    const follows = shEnd >= 0 && section.slice(shEnd, match.index).trim() === ''
    shEnd = -1
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
      shEnd = match.index + whole.length
    } else if (language === 'text' && follows) {
      const last = steps.at(-1)
      if (last?.kind !== 'command') throw new Error(`a text block follows an sh block without a command:\n${body}`)
      last.output = body!.split('\n').map(line => line.trimEnd()).filter(line => line !== '')
    }
  }
  return steps
}

/** The command lines of `steps`, in order. */
export function commandsOf(steps: readonly Step[]): string[] {
  return steps.flatMap(step => step.kind === 'command' ? [step.line] : [])
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

/** A page of the documentation, by its path in the checkout: `README.md` or `docs/NAME.md`. */
export type Page = 'README.md' | `docs/${string}.md`

/** The text of every page of the documentation in the checkout at `root`: `README.md` and every `docs/*.md`. */
export function documentationPages(root: string): ReadonlyMap<Page, string> {
  const pages: Page[] = ['README.md', ...readdirSync(join(root, 'docs')).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}` as Page)]
  return new Map(pages.map(page => [page, readFileSync(join(root, page), 'utf8')]))
}

/** Where an adoption test follows a section. */
export type FollowedIn = 'a fresh project, installed from the tarball' | 'a fresh project, installed from a git URL' | 'a fresh checkout'

/** A section an adoption test follows: its page, its heading there, and where it is followed. */
export interface FollowedSection {
  page: Page
  heading: string
  in: FollowedIn
  /** Followed without its subsections (they are listed apart). */
  own?: true
}

/**
 * The sections the adoption tests follow, each where it is followed, in the
 * order a user walks them: `test/adoption/installed.spec.ts` walks the
 * user's path in one project installed from the tarball — the README's
 * install and quick start, writing a plugin, the README's test suite and CI
 * recipe, then the reference pages, whose commands build on what the walk
 * wrote before them — and `install-from-git.spec.ts` installs from a git URL
 * and works in a fresh checkout. A page's `#` heading stands for the whole
 * page.
 */
export const FOLLOWED_SECTIONS: readonly FollowedSection[] = [
  { page: 'README.md', heading: 'Install', in: 'a fresh project, installed from the tarball', own: true },
  { page: 'README.md', heading: 'From a packed tarball', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'From a git URL', in: 'a fresh project, installed from a git URL' },
  { page: 'README.md', heading: 'Node 22, for dsh and the node22 host', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'Quick start', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/writing-plugins.md', heading: 'Writing a plugin, and finding its races', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'Your own test suite under every load order', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'In your CI', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'Exit codes', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'For dsh developers', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'Working on loadrace', in: 'a fresh checkout' },
  { page: 'README.md', heading: 'Documentation', in: 'a fresh project, installed from the tarball' },
  { page: 'README.md', heading: 'License', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/cli.md', heading: 'Command reference', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/scenarios.md', heading: 'Scenario files', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/reports.md', heading: 'What a sweep reports', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/real-configurations.md', heading: 'Real plugins and real configurations', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/dsh.md', heading: 'The dsh target', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/hosts.md', heading: 'Hosts', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/exploring.md', heading: 'Exploring', in: 'a fresh project, installed from the tarball' },
  { page: 'docs/api.md', heading: 'From vitest, and from Node', in: 'a fresh project, installed from the tarball' },
]

/** The pages the adoption tests walk: every page with a followed section. */
export const WALKED_PAGES: readonly Page[] = [...new Set(FOLLOWED_SECTIONS.map(section => section.page))]

/**
 * Pages no adoption test walks that still show commands, each with why: their
 * commands run in loadrace's own checkout, and are not a user's path.
 */
export const NOT_WALKED: Readonly<Partial<Record<Page, string>>> = {
  'docs/targets.md': 'two replays of the bundled apps/ scenario of the advanced tool chain in loadrace\'s own checkout, each a boot of the whole application on Node 22; test/harness/targets/dsh-apps.spec.ts runs that scenario and checks both orders of its tie',
  'docs/verification.md': 'npm run mutate: StrykerJS, about 35 minutes, not part of npm test or CI',
}

/**
 * Commands the walked pages show that no adoption test runs, each with why: the
 * test suite cannot run itself, and a dsh developer's commands need a built
 * dsh checkout (CI builds one and runs them there).
 */
export const NOT_FOLLOWED: Readonly<Record<string, string>> = {
  'npm test': 'the suite the adoption tests are part of; .ci/run runs it on a clean clone',
  // Sweeping dsh's own repository: a dsh developer's commands, in a built dsh checkout.
  // Your own test suite under every load order: a suite that boots a cordis application.
  'npx loadrace test -- npx vitest run': 'the fresh project has no cordis application for a suite to boot: test/harness/suite/fixture-suite.spec.ts runs loadrace test over the vitest suite of one (test/fixtures/suite-app)',
  'pnpm exec loadrace test -- pnpm vitest run --config vitest.snapshot.config.ts examples/acp-agent examples/headless-agent examples/jsonrpc-agent': 'needs a built dsh checkout: .ci/run runs the same command over six ACP snapshot tests of the tier in the workspace it builds (the two ties, the three the in-process sweep once got wrong, text-turn), and checks every verdict',
  'DSH_EXAMPLE_MODE=lib pnpm exec loadrace test -- pnpm vitest run --config vitest.snapshot.config.ts examples/acp-agent examples/headless-agent examples/jsonrpc-agent': 'needs a built dsh checkout and a second hour of CI: the whole tier in lib mode, as measured, is in docs/test-mode.md; .ci/run runs the src mode on a part of it',
  'pnpm exec loadrace test -- pnpm vitest run $(grep -rlE "cordis-plugin-loader|loader\\.create\\(|EntryTree" --include=*.spec.ts packages examples apps vendor)': 'needs a built dsh checkout: .ci/run runs the same command over three of the unit tier\'s spec files in the workspace it builds, and checks every verdict and every boot',
  'pnpm add -Dw loadrace': 'installs into a dsh checkout, which no test owns; the tarball it stands for is what the adoption walk installs',
  'pnpm exec loadrace snapshots examples/acp-agent/tests/snapshots': 'needs a built dsh checkout: .ci/run runs it on the workspace it builds (into a folder of its own), test/harness/cli/snapshots.spec.ts on the suite\'s layout',
  'pnpm exec loadrace sweep examples/acp-agent/loadrace --host node22': 'needs a built dsh checkout: .ci/run sweeps the bundled scenarios of apps/dsh-workspace in examples/acp-agent/loadrace of the workspace it builds, test/harness/targets/dsh-workspace.spec.ts the same configurations',
}

/** The steps of one followed section (without its subsections when it says `own`), from the pages of the documentation. */
export function followedSteps(pages: ReadonlyMap<Page, string>, section: FollowedSection): Step[] {
  const page = pages.get(section.page)
  if (page === undefined) throw new Error(`no page ${section.page}`)
  return stepsOf(section.own === true ? ownTextOf(page, section.heading) : sectionOf(page, section.heading))
}

/** The headings of a page, in order, each with the titles of the headings it lies under (the nearest last). */
export function headingsWithin(page: string): { level: number, title: string, within: string[] }[] {
  const stack: { level: number, title: string }[] = []
  return headings(page).map(({ level, title }) => {
    while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop()
    const within = stack.map(heading => heading.title)
    stack.push({ level, title })
    return { level, title, within }
  })
}

/** A page's `## ` and `### ` headings, in order. */
export function sectionHeadings(page: string): { level: number, title: string }[] {
  return headings(page).filter(heading => heading.level === 2 || heading.level === 3).map(({ level, title }) => ({ level, title }))
}

/** Every command line of every `sh` block of a page, in order. */
export function everyCommand(page: string): string[] {
  return commandsOf(stepsOf(page))
}
