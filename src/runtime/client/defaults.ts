/**
 * What the generated client (generated/client.ts) assumes unless told
 * otherwise. Kept here, not in generated/: a generated file never pins the
 * namespace, which is a setting of the service (`--namespace`).
 */

/** The namespace of the reference service, and this service's default. */
export const DEFAULT_NAMESPACE = 'http://authenticatorapi.com/';

/** How long a call may take before the client gives up on it. */
export const DEFAULT_TIMEOUT_MS = 30_000;
