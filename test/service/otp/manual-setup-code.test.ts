import test from 'ava';
import { decodeBase32, encodeBase32 } from '../../../src/service/otp/base32';
import { setupCodeVectors as loadVectors } from '../../support/vectors';

test('ManualSetupCode is the Base32 of the UTF-8 bytes of secretCode', (t) => {
  const vectors = loadVectors();
  for (const { secretCode, ManualSetupCode } of vectors) {
    const key = Buffer.from(secretCode, 'utf8');
    t.is(encodeBase32(key), ManualSetupCode, JSON.stringify(secretCode));
    t.deepEqual(decodeBase32(ManualSetupCode), key, ManualSetupCode);
  }
});
