import { isAbsolute, relative, resolve, sep } from 'node:path'

/** Whether `path` is `folder` or inside it (both absolute). */
export function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path)
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest))
}

/** A path for people: relative to the working directory when inside it, else absolute. */
export function shownPath(path: string, cwd = process.cwd()): string {
  const absolute = resolve(cwd, path)
  return isWithin(absolute, cwd) ? relative(cwd, absolute) || '.' : absolute
}
