/** A deterministic pseudo-random text of `length` characters (code points) drawn from `alphabet`. */
export function pseudoRandomText(length: number, seed: number, alphabet: string): string {
  const chars = Array.from(alphabet);
  let out = '';
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += chars[x % chars.length];
  }
  return out;
}
