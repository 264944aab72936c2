/**
 * What a scenario requires of the machine (`requires:`): commands found on
 * PATH, platforms; the reason a sweep skips it where they are not met.
 */
import { chmod } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { onPath, unmetRequirement } from '../../../harness/hosts/requirements.ts'
import { fixtureDir, removeFixtureDirs } from '../../support/fixture-dirs.ts'

afterAll(removeFixtureDirs)

const ABSENT = 'loadrace-no-such-command-7f3a'

describe('a requirement of the machine', () => {
  it('is met by a command on PATH, and unmet by one nowhere on it, saying which', () => {
    expect(onPath('node')).toBe(true)
    expect(onPath(ABSENT)).toBe(false)
    expect(unmetRequirement({ commands: ['node'], platforms: [] })).toBeUndefined()
    expect(unmetRequirement({ commands: ['node', ABSENT], platforms: [] })).toBe(`it requires ${ABSENT} on PATH, and it is not found there`)
  })

  it('finds only an executable file, in the folders of the machine\'s PATH', async () => {
    const dir = await fixtureDir()
    const tool = await dir.write('bin/pwsh', '#!/bin/sh\n')
    const posix = { platform: 'linux' as const, env: { PATH: `${dir.root}/nowhere:${dir.root}/bin` } }
    expect(onPath('pwsh', posix)).toBe(false)
    await chmod(tool, 0o755)
    expect(onPath('pwsh', posix)).toBe(true)
    expect(onPath('bin', { platform: 'linux', env: { PATH: dir.root } })).toBe(false)
    expect(onPath('pwsh', { platform: 'linux', env: {} })).toBe(false)
  })

  it('is met on a platform it names, posix being every one but win32', () => {
    const on = (platform: NodeJS.Platform) => ({ platform, env: process.env })
    expect(unmetRequirement({ commands: [], platforms: ['posix'] }, on('linux'))).toBeUndefined()
    expect(unmetRequirement({ commands: [], platforms: ['posix'] }, on('darwin'))).toBeUndefined()
    expect(unmetRequirement({ commands: [], platforms: ['posix'] }, on('win32'))).toBe('it requires the platform posix, and this is win32')
    expect(unmetRequirement({ commands: [], platforms: ['darwin', 'win32'] }, on('linux'))).toBe('it requires the platform darwin or win32, and this is linux')
  })
})
