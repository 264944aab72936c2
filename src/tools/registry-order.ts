import type { ToolRecord } from './tool.ts'

/** The tool registry's seam of an ordering variant: the order its provider returns the records in. */
export interface RegistryOrdering {
  /** Reorders the tool registry's records before its provider returns schemas. Absent: registration order. */
  readonly registryOrder?: (records: readonly ToolRecord[]) => ToolRecord[]
}

/** The canonical registry (dsh): registration order, ordering is the assembly's job. */
export const CANONICAL_REGISTRY_ORDERING: RegistryOrdering = Object.freeze({})
