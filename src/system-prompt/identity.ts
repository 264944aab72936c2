/** The identity section's text: the sentence in which the reference names itself (kept apart so it is read without loading cordis). */
export const HARNESS_IDENTITY_TEXT = 'You are an agent running inside the loadrace reference harness.'
