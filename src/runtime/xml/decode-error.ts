/** A value that does not fit the generated type (only possible for input not validated first). */
export class DecodeError extends Error {
  override name = 'DecodeError';
}
