import { MATRIX_BUDGET } from '../settings/defaults.ts'

/** Why `MATRIX_BUDGET` (the default budget of `loadrace matrix` and `loadrace diff-targets`, in `settings/defaults.ts`) is enough, for `--help`. */
export const MATRIX_BUDGET_RATIONALE =
  `The default budget (${MATRIX_BUDGET} interleavings per cell) is enough: the auto strategy plays the 3-way covering rows `
  + '(cover(3)) first, so any order dependence among at most three plugins shows within them, and a space that fits the '
  + 'budget is explored whole (exhaustive).'
