/**
 * The reference vectors, read from test/fixtures/vectors/ (copied into the repository:
 * no test reads outside it). Each loader fails loudly on a missing or empty file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SetupCodeVector {
  secretCode: string;
  ManualSetupCode: string;
}

export interface TotpVector {
  secretCode: string;
  unixTime: number;
  pin: string;
}

export const VECTORS_DIR = join(__dirname, '..', 'fixtures', 'vectors');

function load<T>(file: string): T[] {
  const vectors = JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')) as T[];
  if (!Array.isArray(vectors) || vectors.length === 0) throw new Error(`no vectors in test/fixtures/vectors/${file}`);
  return vectors;
}

/** Secrets and the ManualSetupCode the original service answered for them. */
export const setupCodeVectors = (): SetupCodeVector[] => load<SetupCodeVector>('manual-setup-code-vectors.json');

/** Secrets, Unix times and their PINs (HMAC-SHA1, 6 digits, 30 s, UTF-8 key bytes). */
export const totpVectors = (): TotpVector[] => load<TotpVector>('totp-vectors.json');
