import { ANSI, PLAIN, type Style } from '../report/style.ts'
import type { TextWriter } from './command.ts'
import type { Env } from './environment.ts'

/**
 * Whether text for `stream` is coloured: `FORCE_COLOR` set to anything but
 * empty, `0` or `false` forces colour (and `0`/`false` turns it off), else a
 * non-empty `NO_COLOR` turns it off, else colour goes to a terminal that is
 * not `TERM=dumb`.
 */
export function wantsColour(stream: TextWriter, env: Env): boolean {
  const force = env.FORCE_COLOR?.trim().toLowerCase()
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false'
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return stream.isTTY === true && env.TERM !== 'dumb'
}

/** The style of text written to `stream`. */
export function styleFor(stream: TextWriter, env: Env): Style {
  return wantsColour(stream, env) ? ANSI : PLAIN
}
