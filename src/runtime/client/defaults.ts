/** What the generated client (generated/client.ts) assumes unless told otherwise. */

/** How long a call may take before the client gives up on it. */
export const DEFAULT_TIMEOUT_MS = 30_000;
