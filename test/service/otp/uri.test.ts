import test from 'ava';
import { TOTP, URI } from 'otpauth';
import { otpauthUri } from '../../../src/service/otp/uri';

const SECRET = 'JBSWY3DPEHPK3PXP';

test('with an issuer: label ISSUER:ACCOUNT and issuer parameter', (t) => {
  t.is(
    otpauthUri({ issuer: 'Example', account: 'alice', secret: SECRET }),
    'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example',
  );
});

test('without an issuer (absent or empty): label ACCOUNT only', (t) => {
  t.is(otpauthUri({ account: 'alice', secret: SECRET }), 'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP');
  t.is(otpauthUri({ issuer: '', account: 'alice', secret: SECRET }), 'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP');
});

test('without an account (empty, or white space alone): the label is the issuer alone', (t) => {
  for (const account of ['', '  ', '\t']) {
    t.is(
      otpauthUri({ issuer: 'Example', account, secret: SECRET }),
      'otpauth://totp/Example?secret=JBSWY3DPEHPK3PXP&issuer=Example',
      JSON.stringify(account),
    );
  }
});

test('with neither issuer nor account: the unnamed label, and without one a RangeError (a label is never empty)', (t) => {
  for (const [issuer, account] of [
    [undefined, ''],
    ['', ''],
    [' ', ' '],
  ] as const) {
    t.is(otpauthUri({ issuer, account, unnamed: 'Pin Service', secret: SECRET }), 'otpauth://totp/Pin%20Service?secret=JBSWY3DPEHPK3PXP');
    t.throws(() => otpauthUri({ issuer, account, secret: SECRET }), { instanceOf: RangeError });
  }
  t.is(
    otpauthUri({ account: 'alice', unnamed: 'Pin Service', secret: SECRET }),
    'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP',
    'unused when named',
  );
});

test("an authenticator's URI parser (the otpauth package) reads every label form back, and refuses an empty label", (t) => {
  const cases: Array<[issuer: string | undefined, account: string, label: string, issuerRead: string]> = [
    ['Example', 'alice@example.com', 'alice@example.com', 'Example'],
    [undefined, 'alice@example.com', 'alice@example.com', ''],
    ['ACME Co', ' john  doe ', ' john  doe ', 'ACME Co'], // spaces in the account are kept
    ['Example', '', 'Example', 'Example'],
    ['Café €', '', 'Café €', 'Café €'],
    [undefined, '', 'Pin Service', ''],
  ];
  for (const [issuer, account, label, issuerRead] of cases) {
    const uri = otpauthUri({ issuer, account, unnamed: 'Pin Service', secret: SECRET, digits: 8, period: 60 });
    const otp = URI.parse(uri);
    t.true(otp instanceof TOTP, uri);
    t.like(otp as TOTP, { label, issuer: issuerRead, digits: 8, period: 60, algorithm: 'SHA1' }, uri);
    t.is(otp.secret.base32, SECRET, uri);
  }
  // The original's URI for an empty account: the check above can fail.
  t.throws(() => URI.parse('otpauth://totp/?secret=JBSWY3DPEHPK3PXP&issuer=Example'), { instanceOf: URIError });
});

test('spaces are %20, never +', (t) => {
  t.is(
    otpauthUri({ issuer: 'ACME Co', account: 'john doe', secret: SECRET }),
    'otpauth://totp/ACME%20Co:john%20doe?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co',
  );
});

test('a colon inside the issuer or account is escaped, the separator is not', (t) => {
  t.is(otpauthUri({ issuer: 'A:B', account: 'c:d', secret: SECRET }), 'otpauth://totp/A%3AB:c%3Ad?secret=JBSWY3DPEHPK3PXP&issuer=A%3AB');
});

test('non-ASCII is percent-encoded UTF-8, upper-case hex', (t) => {
  t.is(
    otpauthUri({ issuer: 'Café €', account: 'josé', secret: SECRET }),
    'otpauth://totp/Caf%C3%A9%20%E2%82%AC:jos%C3%A9?secret=JBSWY3DPEHPK3PXP&issuer=Caf%C3%A9%20%E2%82%AC',
  );
});

test('only unreserved characters stay literal', (t) => {
  t.is(
    otpauthUri({ account: "aZ09-._~!'()*@/?&=+#%", secret: SECRET }),
    'otpauth://totp/aZ09-._~%21%27%28%29%2A%40%2F%3F%26%3D%2B%23%25?secret=JBSWY3DPEHPK3PXP',
  );
});

test('non-default parameters are appended in the order algorithm, digits, period', (t) => {
  t.is(
    otpauthUri({ issuer: 'Example', account: 'alice', secret: SECRET, period: 60, digits: 8, algorithm: 'SHA256' }),
    'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example&algorithm=SHA256&digits=8&period=60',
  );
  t.is(
    otpauthUri({ account: 'alice', secret: SECRET, algorithm: 'SHA512' }),
    'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP&algorithm=SHA512',
  );
  t.is(otpauthUri({ account: 'alice', secret: SECRET, digits: 8 }), 'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP&digits=8');
  t.is(otpauthUri({ account: 'alice', secret: SECRET, period: 60 }), 'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP&period=60');
});

test('parameters equal to the defaults are omitted', (t) => {
  t.is(
    otpauthUri({ issuer: 'Example', account: 'alice', secret: SECRET, algorithm: 'SHA1', digits: 6, period: 30 }),
    'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example',
  );
});
