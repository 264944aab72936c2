/**
 * Seeded pseudo-randomness for exploration. Every random choice the harness
 * makes flows from a string seed through this module, so a run is reproduced by
 * its seed alone, on any machine.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's small fast counting generator),
 * keyed by a 128-bit string hash.
 */

/** A deterministic random source. */
export interface Rng {
  /** The next 32-bit unsigned integer. */
  uint32(): number
  /** A uniformly chosen integer in `[0, n)`; `n` is a positive integer no larger than 2^32. */
  int(n: number): number
  /** Shuffles `items` in place (Fisher–Yates) and returns the same array. */
  shuffle<T>(items: T[]): T[]
}

const TWO_POW_32 = 0x1_0000_0000

/** Murmur3's 32-bit finaliser: spreads every input bit over the whole word. */
function avalanche(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Hashes a string (by UTF-16 code units) into four independent 32-bit lanes. */
function hashLanes(text: string): [number, number, number, number] {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = 0x3c6ef372
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    a = Math.imul(a ^ unit, 0x01000193)
    b = Math.imul(b ^ unit, 0x5bd1e995)
    c = Math.imul(c ^ unit, 0x27d4eb2f)
    d = Math.imul(d ^ unit, 0x165667b1)
  }
  const length = text.length
  return [avalanche(a ^ length), avalanche(b + length), avalanche(c ^ (length << 7)), avalanche(d - length)]
}

/** Creates the generator for `seed`; the same seed always yields the same stream. */
export function createRng(seed: string): Rng {
  // sfc32 state: three mixing words and a counter (the fourth lane seeds the counter).
  let [a, b, c, counter] = hashLanes(seed)

  const uint32 = (): number => {
    counter = (counter + 1) | 0
    const result = (((a + b) | 0) + counter) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + result) | 0
    return result >>> 0
  }
  // Discard the first outputs (the usual sfc32 warm-up).
  for (let i = 0; i < 15; i++) uint32()

  const int = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) {
      throw new RangeError(`Rng.int needs an integer bound in [1, 2^32], got ${n}`)
    }
    // Rejection sampling keeps the result exactly uniform.
    const limit = TWO_POW_32 - (TWO_POW_32 % n)
    for (;;) {
      const x = uint32()
      if (x < limit) return x % n
    }
  }

  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = int(i + 1)
      const held = items[i] as T
      items[i] = items[j] as T
      items[j] = held
    }
    return items
  }

  return { uint32, int, shuffle }
}

/**
 * A child seed for one named consumer (a scenario, a strategy). It depends only
 * on the parent seed and the name, never on run order, so adding or reordering
 * scenarios does not change what any other scenario explores.
 */
export function deriveSeed(seed: string, name: string): string {
  const [a, b] = hashLanes(`${seed}\u0000${name}`)
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')
}
