/** The environment variables the CLI reads, and whether this is CI (owned by the settings). */
export { isCi, type Env } from '../sweep/settings.ts'
