import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeBase32, encodeBase32 } from '../../src/otp/base32';

interface Vector {
  secretCode: string;
  ManualSetupCode: string;
}

const VECTORS_FILE = path.join(__dirname, '../../../shared/reference/manual-setup-code-vectors.json');

function loadVectors(): Vector[] {
  if (!existsSync(VECTORS_FILE)) throw new Error(`Reference vectors missing: ${VECTORS_FILE}`);
  const vectors = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as Vector[];
  if (!Array.isArray(vectors) || vectors.length === 0) throw new Error(`No vectors in ${VECTORS_FILE}`);
  return vectors;
}

test('ManualSetupCode is the Base32 of the UTF-8 bytes of secretCode', (t) => {
  const vectors = loadVectors();
  for (const { secretCode, ManualSetupCode } of vectors) {
    const key = Buffer.from(secretCode, 'utf8');
    t.is(encodeBase32(key), ManualSetupCode, JSON.stringify(secretCode));
    t.deepEqual(decodeBase32(ManualSetupCode), key, ManualSetupCode);
  }
});
