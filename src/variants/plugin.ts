import type { Context } from '@deepseek-ai/cordis'
import type { Variant } from './variant.ts'

/**
 * Puts a variant in force: provides it as the `variant` service (each
 * service reads its seam of it through `variantSeam`) and installs its
 * `system-prompt/assemble` listener, if it has one. The listener post-processes the result of the rest of the chain.
 */
export const VariantPlugin = {
  name: 'variant',
  apply(ctx: Context, variant: Variant): void {
    ctx.provide('variant', variant)
    const listener = variant.assembleListener
    if (listener !== undefined) {
      ctx.on('system-prompt/assemble', async (_assembly, _context, next) => listener(await next()))
    }
  },
}
