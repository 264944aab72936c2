import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

/**
 * The specs mutation testing runs (`npm run mutate`, see stryker.config.mjs):
 * the unit and feature specs of the modules that carry a guarantee — the
 * reference's tool order and assembly, the runtime's operation pool, virtual
 * clock and quiescence, the projection and its comparison, minimisation, the
 * analysis and the expectations — all in process and fast, so that each
 * mutant runs only the specs that cover it in seconds. Stryker's vitest
 * runner runs them on one worker thread.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/src/system-prompt/*.spec.ts',
      'test/src/variants/*.spec.ts',
      'test/harness/runtime/{operations,virtual-clock,quiescence,held-work,phases,inactive}.spec.ts',
      'test/harness/projection/*.spec.ts',
      'test/harness/oracle/*.spec.ts',
      // skipped.spec.ts changes the working directory, which a worker thread (Stryker's vitest pool) cannot.
      'test/harness/judge/{analyze,uncontrolled,partly-inactive,expected-header,expectation}.spec.ts',
    ],
  },
})
