/** A mistake on the command line: one line for the user, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
