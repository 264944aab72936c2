/** The environment variables loadrace reads. */
export type Env = Readonly<Record<string, string | undefined>>

/** Whether this is a CI run: `CI` set to anything but empty, `false` or `0`. */
export function isCi(env: Env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}
