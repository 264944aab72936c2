/** The fixture application of `loadrace test` (test/fixtures/suite-app): its folder, and the command that runs its vitest suite. */
import { fileURLToPath } from 'node:url'

/** The fixture project: a small cordis application with its own vitest suite. */
export const SUITE_APP = fileURLToPath(new URL('../fixtures/suite-app/', import.meta.url))

/** vitest's command, as the fixture's developers would run it. */
export const SUITE_APP_COMMAND: readonly string[] = [process.execPath, fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', '--config', 'vitest.config.mjs']

/** The fixture app itself. */
export const SUITE_APP_BIN = fileURLToPath(new URL('../fixtures/suite-app/app.mjs', import.meta.url))
