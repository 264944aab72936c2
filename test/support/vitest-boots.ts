/** The fixture suite whose tests boot compositions inside vitest's own workers (test/fixtures/vitest-boots). */
import { fileURLToPath } from 'node:url'

/** Its folder. */
export const VITEST_BOOTS = fileURLToPath(new URL('../fixtures/vitest-boots/', import.meta.url))

/** vitest's command, as its developers would run it (their own config found by vitest). */
export const VITEST_BOOTS_COMMAND: readonly string[] = [process.execPath, fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url)), 'run']
