// Mutation testing (`npm run mutate`; not part of `npm test` or CI): StrykerJS
// mutates the modules that carry a guarantee and runs, per mutant, the specs
// of vitest.mutation.config.ts that cover it. Score and survivors:
// docs/verification.md. Reports go to reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/system-prompt/tool-order.ts',
    'src/system-prompt/assembly.ts',
    'harness/runtime/operations.ts',
    'harness/runtime/virtual-clock.ts',
    'harness/runtime/quiescence.ts',
    'harness/projection/projection.ts',
    'harness/oracle/compare.ts',
    'harness/oracle/minimise.ts',
    'harness/judge/analyse.ts',
    'harness/judge/expectation.ts',
  ],
  concurrency: 2,
  timeoutMS: 30_000,
  timeoutFactor: 3,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: 'reports/mutation/.stryker-tmp',
  cleanTempDir: true,
  ignorePatterns: ['reports', 'dist', 'build', '.vitest'],
}
