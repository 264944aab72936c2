import { readFile } from 'node:fs/promises'
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { isVariantName, variantSeam, VARIANT_NAMES } from '../../../src/runtime/variant-service.ts'
import { variants } from '../../../src/variants/index.ts'

const CANONICAL_SEAM = { order: 'canonical seam' }

/** A context whose `variant` service is `provided`. */
async function providing(provided: unknown): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin({ name: 'provider', apply: (inner: Context) => { inner.provide('variant', provided) } })
  return ctx
}

describe('variant names', () => {
  it('are exactly the variants src/variants defines, and the ones docs/matrix.md tabulates', async () => {
    expect([...VARIANT_NAMES].sort()).toEqual(Object.keys(variants).sort())
    const matrix = await readFile(new URL('../../../docs/matrix.md', import.meta.url), 'utf8')
    const table = matrix.split('## Per variant, in short')[1]!.split('\n## ')[0]!
    expect([...table.matchAll(/^\| `([^`]+)` \|/gm)].map(match => match[1])).toEqual([...VARIANT_NAMES])
  })

  it('are recognised, and nothing else is', () => {
    for (const name of VARIANT_NAMES) expect(isVariantName(name)).toBe(true)
    for (const other of ['Canonical', 'alphabetical', '', undefined, null, 1, { name: 'canonical' }]) expect(isVariantName(other)).toBe(false)
  })
})

describe('the seam in force', () => {
  it("is the caller's canonical seam when no `variant` service is provided", () => {
    expect(variantSeam(new Context(), CANONICAL_SEAM)).toBe(CANONICAL_SEAM)
  })

  it('is the provided variant, whole', async () => {
    const ctx = await providing(variants['registry-sort'])
    expect(variantSeam(ctx, CANONICAL_SEAM)).toBe(variants['registry-sort'])
  })

  it('accepts any object with a variant name and the `sortKnownNames` flag', async () => {
    const minimal = { name: 'locale-compare', sortKnownNames: false }
    expect(variantSeam(await providing(minimal), CANONICAL_SEAM)).toBe(minimal)
  })

  it.each([
    ['an unknown name', { name: 'alphabetical', sortKnownNames: true }],
    ['no `sortKnownNames` flag', { name: 'canonical' }],
    ['a flag that is not a boolean', { name: 'canonical', sortKnownNames: 'yes' }],
    ['a bare name', 'canonical'],
  ])('rejects a provided value with %s, with a TypeError', async (_, provided) => {
    const ctx = await providing(provided)
    expect(() => variantSeam(ctx, CANONICAL_SEAM)).toThrow(new TypeError('the "variant" service must provide a Variant object'))
  })
})
