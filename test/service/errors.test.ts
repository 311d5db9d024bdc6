/**
 * Bad input over the wire (docs/clients.md, *Errors*): every client error, over the variants
 * where it applies, answers the prescribed status, Content-Type and fault
 * code; no answer holds a stack trace, a file path, the secret or the PIN
 * sent; malformed PINs are simply `false`; the service keeps working; and
 * the logs of the whole file hold no secret, PIN or query string.
 *
 * The tests run serially: the clock is shared, and the last two tests look
 * back on everything the others did.
 */
import test, { type ExecutionContext } from 'ava';
import { totpVectors, type TotpVector } from '../support/vectors';
import { encodeBase32 } from '../../src/service/otp/base32';
import { totp } from '../../src/service/otp/totp';
import { startTestService, type TestService } from '../support/service';
import {
  DEFAULT_TOTP,
  NS,
  SOAP11_NS,
  SOAP12_NS,
  VARIANTS,
  call,
  formEncode,
  operationElement as operationXml,
  readFault,
  send,
  sendRequest,
  soapEnvelope,
  soapRequest,
  versionOf,
  wholeAnswer,
  type Answer,
  type FieldList,
  type Operation,
  type Variant,
} from '../support/requests';
import { childElements, elementAt, loadReaders, namespaceOf, readXml, textOf, type XmlElement } from '../support/readers';

const SOAP11_CT = 'text/xml; charset=utf-8';
const SOAP12_CT = 'application/soap+xml; charset=utf-8';

/** Distinctive values: if they show up in an answer or a log line, they leaked. */
const SECRET = 'S3cretLeakCanary-42xyz';
const PIN = '924711';
/** Shorter than Pair's 10-byte minimum, still distinctive. */
const SHORT_SECRET = 'Qz7-Leak9';

type SoapVariant = 'soap11' | 'soap12';
const SOAP_VARIANTS: readonly SoapVariant[] = ['soap11', 'soap12'];
const TOTP_VECTORS = totpVectors();
function vector(secretCode: string, unixTime: number): TotpVector {
  const found = TOTP_VECTORS.find((v) => v.secretCode === secretCode && v.unixTime === unixTime);
  if (!found) throw new Error(`no TOTP vector for ${secretCode} at ${unixTime}`);
  return found;
}

let svc: TestService; // default settings (utf8 secrets)
let b32: TestService; // secretEncoding base32

/** Every secret and PIN sent during the file, for the log check at the end. */
const sentSecrets = new Set<string>([SECRET, SHORT_SECRET]);
const sentPins = new Set<string>([PIN]);

test.before(async () => {
  await loadReaders();
  svc = await startTestService();
  b32 = await startTestService({ secretEncoding: 'base32' });
});

test.after.always(async () => {
  await svc?.close();
  await b32?.close();
});

// ---------------------------------------------------------------- requests

function remember(fields: FieldList): void {
  for (const [name, value] of fields) {
    if (name === 'secretCode') sentSecrets.add(value);
    if (name === 'pin') sentPins.add(value);
  }
}

/** A whole SOAP envelope of `variant`'s version around `body`, with an optional SOAP Header. */
const envelope = (variant: SoapVariant, body: string, header?: string) => soapEnvelope(versionOf(variant), body, { header });

/** A raw SOAP request: the envelope text as given, the Content-Type of the version unless overridden, a SOAPAction only when given. */
function soap(
  service: TestService,
  variant: SoapVariant,
  text: string,
  options: { contentType?: string; soapAction?: string } = {},
): Promise<Answer> {
  return sendRequest(service, soapRequest(versionOf(variant), text, undefined, options));
}

/** A POST of `body` as it is, with these headers. */
function post(service: TestService, urlPath: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return sendRequest(service, { method: 'POST', path: urlPath, headers, body });
}

/** One call of `op` over `variant`, the way a generated proxy or a browser form sends it; its secrets and PINs are remembered for the log check. */
function callRemembered(service: TestService, variant: Variant, op: Operation, fields: FieldList): Promise<Answer> {
  remember(fields);
  return call(service, variant, op, fields);
}

// -------------------------------------------------------------- assertions

const LEAKS = [SECRET, PIN, SHORT_SECRET];

/** No stack frame, no error class name, no file path; and none of the given values. */
function assertSafe(t: ExecutionContext, a: Answer, label: string, leaks: readonly string[] = LEAKS): void {
  t.false(a.body.includes('    at '), `${label}: stack frame in ${a.body}`);
  t.false(/\n\s*at\s+\S+\s+\(/.test(a.body), `${label}: stack frame in ${a.body}`);
  t.false(a.body.includes('Error:'), `${label}: error name in ${a.body}`);
  t.false(/node_modules|\/work\/|\/src\/|[A-Za-z]:\\|\.(?:ts|js):\d+/.test(a.body), `${label}: file path in ${a.body}`);
  for (const leak of leaks) t.false(wholeAnswer(a).includes(leak), `${label}: answer contains ${JSON.stringify(leak)}`);
}

function assertOneSentence(t: ExecutionContext, message: string, label: string): void {
  t.true(message.trim().length > 0, `${label}: empty message`);
  t.false(/[\r\n]/.test(message.trim()), `${label}: message is not one line: ${JSON.stringify(message)}`);
  t.false(/(^|\/)[\w.-]+\/[\w.-]+\.(?:ts|js)\b/.test(message), `${label}: file path in ${message}`);
}

/**
 * A SOAP fault of `version` with code `code` (the 1.1 name: Client, Server,
 * VersionMismatch, MustUnderstand; 1.2 Sender/Receiver are derived), HTTP
 * 500, the Content-Type of that version. Returns the fault's text.
 */
function assertFault(
  t: ExecutionContext,
  a: Answer,
  version: SoapVariant,
  code: 'Client' | 'VersionMismatch' | 'MustUnderstand',
  label: string,
  leaks: readonly string[] = LEAKS,
): string {
  label = `${label} [${version}]`;
  t.is(a.status, 500, `${label}: status`);
  t.is(a.contentType, version === 'soap11' ? SOAP11_CT : SOAP12_CT, `${label}: Content-Type`);
  assertSafe(t, a, label, leaks);
  const envNs = version === 'soap11' ? SOAP11_NS : SOAP12_NS;
  readXml(a.body, (doc) => {
    const root = doc.root;
    t.is(root.name, 'Envelope', `${label}: root`);
    t.is(namespaceOf(root), envNs, `${label}: envelope namespace`);
    const body = elementAt(doc, '/e:Envelope/e:Body', { e: envNs });
    t.truthy(body, `${label}: no Body`);
    const children = childElements(body!);
    t.is(children.length, 1, `${label}: Body holds one element`);
  });
  const expectedLocal = version === 'soap11' ? code : code === 'Client' ? 'Sender' : code;
  const fault = readFault(a.body, versionOf(version));
  t.is(fault.code, `soap:${expectedLocal}`, `${label}: fault code`);
  t.is(fault.codeLocalName, expectedLocal, `${label}: fault code local name`);
  t.is(fault.codeNamespace, envNs, `${label}: fault code namespace`);
  assertOneSentence(t, fault.reason, label);
  return fault.reason;
}

/** A plain HTTP error: status, text/plain, one line. */
function assertPlain(t: ExecutionContext, a: Answer, status: number, label: string, leaks: readonly string[] = LEAKS): void {
  t.is(a.status, status, `${label}: status (${a.body})`);
  t.regex(a.contentType, /^text\/plain(;|$)/, `${label}: Content-Type`);
  assertSafe(t, a, label, leaks);
  assertOneSentence(t, a.body, label);
}

/** The client error of the *Errors* table of docs/clients.md for `variant`: a Client/Sender fault, or 400 text/plain. */
function assertClientError(t: ExecutionContext, a: Answer, variant: Variant, label: string, leaks: readonly string[] = LEAKS): void {
  if (variant === 'soap11' || variant === 'soap12') assertFault(t, a, variant, 'Client', label, leaks);
  else assertPlain(t, a, 400, `${label} [${variant}]`, leaks);
}

/** A successful answer of `variant` (status, Content-Type, root element); returns what `read` reads from the result element, or undefined. */
function assertOk<T>(
  t: ExecutionContext,
  a: Answer,
  variant: Variant,
  op: Operation,
  label: string,
  read: (result: XmlElement) => T,
): T | undefined {
  label = `${label} [${variant}]`;
  t.is(a.status, 200, `${label}: status (${a.body})`);
  t.is(a.contentType, variant === 'soap12' ? SOAP12_CT : SOAP11_CT, `${label}: Content-Type`);
  if (a.status !== 200) return undefined;
  const ns = { t: NS, e: variant === 'soap11' ? SOAP11_NS : SOAP12_NS };
  const xpath =
    variant === 'soap11' || variant === 'soap12'
      ? op === 'Pair'
        ? '/e:Envelope/e:Body/t:PairResponse/t:PairResult'
        : '/e:Envelope/e:Body/t:ValidatePinResponse/t:ValidatePinResult'
      : op === 'Pair'
        ? '/t:PairingInfo'
        : '/t:boolean';
  return readXml(a.body, (doc) => {
    const result = elementAt(doc, xpath, ns);
    t.truthy(result, `${label}: no ${xpath} in ${a.body}`);
    return result ? read(result) : undefined;
  });
}

/** The boolean ValidatePin answered. */
function assertBoolean(t: ExecutionContext, a: Answer, variant: Variant, expected: boolean, label: string): void {
  const answered = assertOk(t, a, variant, 'ValidatePin', label, (result) => textOf(result).trim());
  if (answered !== undefined) t.is(answered, String(expected), `${label} [${variant}]: ValidatePin answered`);
}

/** A Pair answer's ManualSetupCode. */
function manualSetupCode(t: ExecutionContext, a: Answer, variant: Variant, label: string): string | undefined {
  return assertOk(t, a, variant, 'Pair', label, (result) => {
    const code = elementAt(result, 't:ManualSetupCode', { t: NS });
    return code ? textOf(code) : undefined;
  });
}

// ------------------------------------------------------ field errors (all four variants)

interface FieldCase {
  title: string;
  op: Operation;
  fields: FieldList;
  service?: () => TestService;
  /** Values besides the canaries that must not be echoed. */
  leaks?: readonly string[];
}

const FIELD_CASES: FieldCase[] = [
  {
    title: 'Pair without secretCode',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice@example.com'],
    ],
  },
  { title: 'ValidatePin without secretCode', op: 'ValidatePin', fields: [['pin', PIN]] },
  {
    title: 'Pair with an empty secretCode',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice@example.com'],
      ['secretCode', ''],
    ],
  },
  {
    title: 'ValidatePin with an empty secretCode',
    op: 'ValidatePin',
    fields: [
      ['pin', PIN],
      ['secretCode', ''],
    ],
  },
  {
    title: 'Pair with a secretCode shorter than 10 bytes',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice@example.com'],
      ['secretCode', SHORT_SECRET],
    ],
  },
  {
    title: 'Pair without appInfo',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['secretCode', SECRET],
    ],
  },
  {
    title: 'Pair with appName over 100 characters',
    op: 'Pair',
    fields: [
      ['appName', 'n'.repeat(101)],
      ['appInfo', 'alice'],
      ['secretCode', SECRET],
    ],
  },
  {
    title: 'Pair with appInfo over 256 characters',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'i'.repeat(257)],
      ['secretCode', SECRET],
    ],
  },
  {
    title: 'Pair with a secretCode over 256 bytes (ASCII)',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice'],
      ['secretCode', SECRET + 'x'.repeat(257 - SECRET.length)],
    ],
  },
  {
    // 140 characters but 258 bytes: the limit counts UTF-8 bytes.
    title: 'Pair with a secretCode over 256 bytes (fewer characters)',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice'],
      ['secretCode', 'é'.repeat(118) + SECRET],
    ],
  },
  // Characters XML cannot carry: malformed XML on the SOAP variants, the field check on the others.
  {
    title: 'Pair with U+0001 in appName',
    op: 'Pair',
    fields: [
      ['appName', 'Ac\u0001me'],
      ['appInfo', 'alice'],
      ['secretCode', SECRET],
    ],
  },
  {
    title: 'Pair with U+000B (vertical tab) in appInfo',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'ali\u000bce'],
      ['secretCode', SECRET],
    ],
  },
  {
    title: 'Pair with U+FFFF in secretCode',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice'],
      ['secretCode', `${SECRET}\uffff`],
    ],
  },
  {
    title: 'ValidatePin with U+001F in secretCode',
    op: 'ValidatePin',
    fields: [
      ['pin', PIN],
      ['secretCode', `${SECRET}\u001f`],
    ],
  },
  {
    title: 'Pair with an invalid Base32 secretCode (secretEncoding base32)',
    op: 'Pair',
    fields: [
      ['appName', 'Acme'],
      ['appInfo', 'alice'],
      ['secretCode', SECRET],
    ],
    service: () => b32,
  },
  {
    title: 'ValidatePin with an invalid Base32 secretCode (secretEncoding base32)',
    op: 'ValidatePin',
    fields: [
      ['pin', PIN],
      ['secretCode', SECRET],
    ],
    service: () => b32,
  },
];

for (const c of FIELD_CASES) {
  test.serial(`client error: ${c.title}`, async (t) => {
    const service = c.service?.() ?? svc;
    for (const variant of VARIANTS) {
      const a = await callRemembered(service, variant, c.op, c.fields);
      assertClientError(t, a, variant, c.title, [...LEAKS, ...(c.leaks ?? [])]);
    }
  });
}

test.serial('HTTP GET and POST: a control character that XML cannot carry (U+0001) is refused too', async (t) => {
  for (const variant of ['httpGet', 'httpPost'] as const) {
    for (const name of ['appName', 'appInfo', 'secretCode'] as const) {
      const fields: Record<string, string> = { appName: 'Acme', appInfo: 'alice', secretCode: SECRET };
      fields[name] = `${fields[name]}\u0001`;
      const a = await callRemembered(svc, variant, 'Pair', Object.entries(fields));
      assertClientError(t, a, variant, `U+0001 in ${name}`);
    }
  }
});

test.serial('tab, line feed and carriage return in the fields are accepted on every variant, and are part of the key bytes', async (t) => {
  // A client whose stored secret ends with a newline works with the original: it must work here too.
  svc.clock.set(1_750_000_000_000);
  for (const variant of VARIANTS) {
    for (const [label, secret] of [
      ['a trailing LF', `tab-lf-cr-${variant}-1\n`],
      ['a trailing CR LF', `tab-lf-cr-${variant}-2\r\n`],
      ['a TAB inside', `tab-lf-cr-${variant}\t3`],
    ] as const) {
      sentSecrets.add(secret);
      const key = Buffer.from(secret, 'utf8');
      const fields: FieldList = [
        ['appName', 'Ac\tme'],
        ['appInfo', 'alice\r\nsmith'],
        ['secretCode', secret],
      ];
      t.is(
        manualSetupCode(t, await callRemembered(svc, variant, 'Pair', fields), variant, label),
        encodeBase32(key),
        `${label} [${variant}]: ManualSetupCode`,
      );
      const pin = totp(key, DEFAULT_TOTP, Math.floor(svc.clock.now() / 1000));
      sentPins.add(pin);
      assertBoolean(
        t,
        await callRemembered(svc, variant, 'ValidatePin', [
          ['pin', pin],
          ['secretCode', secret],
        ]),
        variant,
        true,
        `${label}: the PIN of the key with its control bytes`,
      );
      // Without the control character it is another key: its PIN is another.
      const stripped = secret.replace(/[\t\r\n]/g, '');
      assertBoolean(
        t,
        await callRemembered(svc, variant, 'ValidatePin', [
          ['pin', pin],
          ['secretCode', stripped],
        ]),
        variant,
        totp(Buffer.from(stripped), DEFAULT_TOTP, Math.floor(svc.clock.now() / 1000)) === pin,
        `${label}: stripped secret`,
      );
    }
  }
});

test.serial('the limits themselves are accepted: appName 100, appInfo 256 characters, secretCode 256 bytes, 10-byte secret', async (t) => {
  const cases: Array<[string, FieldList]> = [
    [
      'appName of 100 characters',
      [
        ['appName', 'é'.repeat(100)],
        ['appInfo', 'alice'],
        ['secretCode', SECRET],
      ],
    ],
    [
      'appInfo of 256 characters',
      [
        ['appName', 'Acme'],
        ['appInfo', 'i'.repeat(256)],
        ['secretCode', SECRET],
      ],
    ],
    [
      'secretCode of 256 bytes',
      [
        ['appName', 'Acme'],
        ['appInfo', 'alice'],
        ['secretCode', SECRET + 'é'.repeat(117)],
      ],
    ],
    [
      'secretCode of 10 bytes',
      [
        ['appName', 'Acme'],
        ['appInfo', 'alice'],
        ['secretCode', 'Qz7-Leak9x'],
      ],
    ],
    [
      'no appName at all',
      [
        ['appInfo', 'alice'],
        ['secretCode', SECRET],
      ],
    ],
  ];
  for (const [label, fields] of cases) {
    const secret = fields.at(-1)![1];
    t.true(Buffer.byteLength(secret) <= 256 && Buffer.byteLength(secret) >= 10, label);
    for (const variant of VARIANTS) {
      const code = manualSetupCode(t, await callRemembered(svc, variant, 'Pair', fields), variant, label);
      t.is(code, encodeBase32(Buffer.from(secret, 'utf8')), `${label} [${variant}]: ManualSetupCode`);
    }
  }
});

test.serial("ValidatePin accepts a secretCode shorter than Pair's minimum: false for a wrong PIN, true for the right one", async (t) => {
  // Reference vector for the one-byte secret "a"; each variant uses its own time step.
  const times = [59, 1111111109, 1234567890, 2000000000];
  for (const [i, variant] of VARIANTS.entries()) {
    const v = vector('a', times[i]);
    svc.clock.set(v.unixTime * 1000);
    const wrong = String((Number(v.pin) + 1) % 1_000_000).padStart(6, '0');
    assertBoolean(
      t,
      await callRemembered(svc, variant, 'ValidatePin', [
        ['pin', wrong],
        ['secretCode', 'a'],
      ]),
      variant,
      false,
      'short secret, wrong PIN',
    );
    assertBoolean(
      t,
      await callRemembered(svc, variant, 'ValidatePin', [
        ['pin', v.pin],
        ['secretCode', 'a'],
      ]),
      variant,
      true,
      'short secret, right PIN',
    );
  }
});

test.serial('a Pair whose texts are within every limit never ends in a server error (the QR code must hold the URI)', async (t) => {
  // 100 + 256 characters of € percent-encode to 9 bytes each: an otpauth URI of ~4 KB,
  // more than a QR code holds. The limits say this input is valid, so it must pair, or
  // at worst be refused as the caller's mistake, never fail as the service's own.
  const fields: FieldList = [
    ['appName', '€'.repeat(100)],
    ['appInfo', '€'.repeat(256)],
    ['secretCode', SECRET],
  ];
  for (const variant of VARIANTS) {
    const a = await callRemembered(svc, variant, 'Pair', fields);
    assertSafe(t, a, variant);
    if (a.status === 200) manualSetupCode(t, a, variant, 'long € texts');
    else assertClientError(t, a, variant, 'long € texts');
  }
});

// ------------------------------------------------------------------ base32 mode works

test.serial('secretEncoding base32: a valid Base32 secret (any case, spaces, padding) pairs with that very code', async (t) => {
  for (const secret of ['JBSWY3DPEHPK3PXP', 'jbsw y3dp ehpk 3pxp', 'JBSWY3DPEHPK3PXP======']) {
    for (const variant of VARIANTS) {
      const code = manualSetupCode(
        t,
        await callRemembered(b32, variant, 'Pair', [
          ['appName', 'Acme'],
          ['appInfo', 'alice'],
          ['secretCode', secret],
        ]),
        variant,
        secret,
      );
      t.is(code, 'JBSWY3DPEHPK3PXP', `${secret} [${variant}]`);
    }
  }
});

// ---------------------------------------------------------- SOAP: schema and envelope

/** A valid Pair body, with the canary secret in it. */
const PAIR_FIELDS: FieldList = [
  ['appName', 'Acme'],
  ['appInfo', 'alice@example.com'],
  ['secretCode', SECRET],
];
const PAIR_BODY = operationXml('Pair', PAIR_FIELDS);
const VALIDATE_FIELDS: FieldList = [
  ['pin', PIN],
  ['secretCode', SECRET],
];

interface SoapCase {
  title: string;
  /** The SOAP Body content. */
  body: string;
  soapAction?: string;
}

const SOAP_BODY_CASES: SoapCase[] = [
  {
    title: 'schema violation: Pair children out of order',
    body: operationXml('Pair', [
      ['secretCode', SECRET],
      ['appInfo', 'alice'],
      ['appName', 'Acme'],
    ]),
    soapAction: 'Pair',
  },
  {
    title: 'schema violation: ValidatePin children out of order',
    body: operationXml('ValidatePin', [
      ['secretCode', SECRET],
      ['pin', PIN],
    ]),
    soapAction: 'ValidatePin',
  },
  {
    title: 'schema violation: an unknown child element',
    body: operationXml('Pair', [...PAIR_FIELDS, ['comment', 'hello']]),
    soapAction: 'Pair',
  },
  {
    title: 'schema violation: a repeated child element',
    body: operationXml('ValidatePin', [
      ['pin', PIN],
      ['secretCode', SECRET],
      ['secretCode', SECRET],
    ]),
    soapAction: 'ValidatePin',
  },
  {
    title: 'schema violation: a field in no namespace',
    body: `<Pair xmlns="${NS}"><appInfo>alice</appInfo><secretCode xmlns="">${SECRET}</secretCode></Pair>`,
    soapAction: 'Pair',
  },
  { title: 'an unknown body element', body: operationXml('Nope', PAIR_FIELDS) },
  { title: 'the Pair element in another namespace', body: operationXml('Pair', PAIR_FIELDS, 'http://example.com/other/') },
  { title: 'the Pair element in no namespace', body: `<Pair><appInfo>alice</appInfo><secretCode>${SECRET}</secretCode></Pair>` },
  { title: 'two elements in the Body', body: PAIR_BODY + operationXml('ValidatePin', VALIDATE_FIELDS) },
  { title: 'the same operation twice in the Body', body: PAIR_BODY + PAIR_BODY },
  { title: 'an empty Body', body: '' },
];

for (const c of SOAP_BODY_CASES) {
  test.serial(`client error (SOAP): ${c.title}`, async (t) => {
    for (const variant of SOAP_VARIANTS) {
      const action = c.soapAction === undefined ? undefined : NS + c.soapAction;
      const a = await soap(svc, variant, envelope(variant, c.body), {
        soapAction: variant === 'soap11' && action ? `"${action}"` : undefined,
        contentType: variant === 'soap12' && action ? `${SOAP12_CT}; action="${action}"` : undefined,
      });
      assertFault(t, a, variant, 'Client', c.title);
    }
  });
}

test.serial('client error (SOAP 1.1): a SOAPAction naming the other operation', async (t) => {
  const pair = await soap(svc, 'soap11', envelope('soap11', PAIR_BODY), { soapAction: `"${NS}ValidatePin"` });
  assertFault(t, pair, 'soap11', 'Client', 'Pair body, ValidatePin action');
  const validate = await soap(svc, 'soap11', envelope('soap11', operationXml('ValidatePin', VALIDATE_FIELDS)), {
    soapAction: `"${NS}Pair"`,
  });
  assertFault(t, validate, 'soap11', 'Client', 'ValidatePin body, Pair action');
  // The right action, quoted or not, and no action at all, are accepted.
  for (const soapAction of [`"${NS}Pair"`, `${NS}Pair`, undefined]) {
    const ok = await soap(svc, 'soap11', envelope('soap11', PAIR_BODY), { soapAction });
    t.truthy(manualSetupCode(t, ok, 'soap11', `SOAPAction ${soapAction}`));
  }
});

test.serial('client error (SOAP 1.2): an action parameter naming the other operation', async (t) => {
  const pair = await soap(svc, 'soap12', envelope('soap12', PAIR_BODY), { contentType: `${SOAP12_CT}; action="${NS}ValidatePin"` });
  assertFault(t, pair, 'soap12', 'Client', 'Pair body, ValidatePin action');
  const validate = await soap(svc, 'soap12', envelope('soap12', operationXml('ValidatePin', VALIDATE_FIELDS)), {
    contentType: `${SOAP12_CT}; action="${NS}Pair"`,
  });
  assertFault(t, validate, 'soap12', 'Client', 'ValidatePin body, Pair action');
  for (const contentType of [`${SOAP12_CT}; action="${NS}Pair"`, SOAP12_CT]) {
    const ok = await soap(svc, 'soap12', envelope('soap12', PAIR_BODY), { contentType });
    t.truthy(manualSetupCode(t, ok, 'soap12', contentType));
  }
});

test.serial('client error (SOAP): malformed XML', async (t) => {
  for (const variant of SOAP_VARIANTS) {
    const whole = envelope(variant, PAIR_BODY);
    const cases = {
      truncated: whole.slice(0, whole.indexOf('</secretCode>')),
      'mismatched tags': whole.replace('</appInfo>', '</appName>'),
      'undeclared prefix': whole.replace('<Pair ', '<x:Pair ').replace('</Pair>', '</x:Pair>'),
      'not XML': `secretCode=${SECRET}&pin=${PIN}`,
      empty: '',
    };
    for (const [label, text] of Object.entries(cases)) {
      assertFault(t, await soap(svc, variant, text), variant, 'Client', `malformed XML: ${label}`);
    }
  }
});

test.serial('client error (SOAP): a DOCTYPE, harmless or declaring entities, is refused and no entity is expanded', async (t) => {
  for (const variant of SOAP_VARIANTS) {
    const whole = envelope(variant, PAIR_BODY);
    const body = whole.slice(whole.indexOf('?>') + 2);
    const decl = '<?xml version="1.0" encoding="utf-8"?>';
    const harmless = `${decl}<!DOCTYPE soap:Envelope>${body}`;
    assertFault(t, await soap(svc, variant, harmless), variant, 'Client', 'harmless DOCTYPE');

    const internal = `${decl}<!DOCTYPE soap:Envelope [<!ENTITY canary "${SECRET}">]>${body.replace(`>${SECRET}<`, '>&canary;<')}`;
    assertFault(t, await soap(svc, variant, internal), variant, 'Client', 'internal entity');

    const external = `${decl}<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body.replace('>alice@example.com<', '>&xxe;<')}`;
    const a = await soap(svc, variant, external);
    assertFault(t, a, variant, 'Client', 'external entity');
    t.false(a.body.includes('root:'), 'external entity content');

    // A billion laughs must be refused at once, not expanded.
    const laughs =
      `${decl}<!DOCTYPE soap:Envelope [<!ENTITY a "${SECRET}">` +
      Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'bcdefghij'[i]} "${`&${'abcdefghi'[i]};`.repeat(10)}">`).join('') +
      `]>${body.replace(`>${SECRET}<`, '>&j;<')}`;
    assertFault(t, await soap(svc, variant, laughs), variant, 'Client', 'billion laughs');
  }
});

test.serial('VersionMismatch: a SOAP 1.2 envelope sent as text/xml gets a SOAP 1.1 fault', async (t) => {
  const a = await soap(svc, 'soap11', envelope('soap12', PAIR_BODY), { soapAction: `"${NS}Pair"` });
  assertFault(t, a, 'soap11', 'VersionMismatch', '1.2 envelope as text/xml');
});

test.serial('VersionMismatch: a SOAP 1.1 envelope sent as application/soap+xml gets a SOAP 1.2 fault', async (t) => {
  const a = await soap(svc, 'soap12', envelope('soap11', PAIR_BODY));
  assertFault(t, a, 'soap12', 'VersionMismatch', '1.1 envelope as application/soap+xml');
});

test.serial('MustUnderstand: a header block that must be understood is refused; one that need not be is ignored', async (t) => {
  const block = (value: string) =>
    `<soap:Header><t:Session xmlns:t="urn:example:session" soap:mustUnderstand="${value}">${SECRET}</t:Session></soap:Header>`;
  const faults: Array<[SoapVariant, string]> = [
    ['soap11', '1'],
    ['soap12', 'true'],
    ['soap12', '1'],
  ];
  for (const [variant, value] of faults) {
    const a = await soap(svc, variant, envelope(variant, PAIR_BODY, block(value)));
    assertFault(t, a, variant, 'MustUnderstand', `mustUnderstand="${value}"`);
  }
  const ignored: Array<[SoapVariant, string]> = [
    ['soap11', '0'],
    ['soap12', 'false'],
    ['soap12', '0'],
  ];
  for (const [variant, value] of ignored) {
    const a = await soap(svc, variant, envelope(variant, PAIR_BODY, block(value)));
    t.truthy(manualSetupCode(t, a, variant, `mustUnderstand="${value}"`));
  }
});

// ------------------------------------------------------------ size, media type, path

const LIMIT = 64 * 1024;

/** A SOAP 1.1 Pair envelope padded with a comment to exactly `bytes` bytes. */
function paddedEnvelope(variant: SoapVariant, bytes: number): string {
  const base = envelope(variant, PAIR_BODY);
  const padding = bytes - Buffer.byteLength(base) - '<!---->'.length;
  const text = base.replace('<soap:Body>', `<!--${'p'.repeat(padding)}--><soap:Body>`);
  if (Buffer.byteLength(text) !== bytes) throw new Error('padding arithmetic');
  return text;
}

/** A Pair form padded with an ignored field to exactly `bytes` bytes. */
function paddedForm(bytes: number): string {
  const base = formEncode([...PAIR_FIELDS, ['padding', '']]);
  return base + 'p'.repeat(bytes - base.length);
}

test.serial('413: a body over 64 KiB (SOAP 1.1, SOAP 1.2, HTTP POST); exactly 64 KiB is accepted', async (t) => {
  for (const variant of SOAP_VARIANTS) {
    const over = await soap(svc, variant, paddedEnvelope(variant, LIMIT + 1));
    t.is(over.status, 413, `${variant}: ${over.body}`);
    assertSafe(t, over, `${variant} 413`);
    t.truthy(manualSetupCode(t, await soap(svc, variant, paddedEnvelope(variant, LIMIT)), variant, 'exactly 64 KiB'));
  }
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const over = await post(svc, '/api.asmx/Pair', form, paddedForm(LIMIT + 1));
  t.is(over.status, 413, `httpPost: ${over.body}`);
  assertSafe(t, over, 'httpPost 413');
  t.truthy(manualSetupCode(t, await post(svc, '/api.asmx/Pair', form, paddedForm(LIMIT)), 'httpPost', 'exactly 64 KiB'));
  // Much larger, too.
  const huge = await soap(svc, 'soap11', paddedEnvelope('soap11', 1024 * 1024));
  t.is(huge.status, 413);
});

test.serial('415: an unsupported media type, to the SOAP endpoint and to an HTTP POST operation', async (t) => {
  // JSON to an operation is the JSON variant (test/service/json.test.ts); to the SOAP endpoint it is a wrong media type.
  const json = JSON.stringify({ appName: 'Acme', appInfo: 'alice', secretCode: SECRET });
  const cases: Array<[string, string, string]> = [
    ['/api.asmx', 'application/json', json],
    ['/api.asmx/Pair', 'text/plain', json],
    ['/api.asmx/ValidatePin', 'application/javascript', JSON.stringify({ pin: PIN, secretCode: SECRET })],
    ['/api.asmx', 'text/plain', envelope('soap11', PAIR_BODY)],
    ['/api.asmx/Pair', 'text/xml; charset=utf-8', envelope('soap11', PAIR_BODY)],
    // UTF-8 is the only charset read.
    ['/api.asmx', 'text/xml; charset=iso-8859-1', envelope('soap11', PAIR_BODY)],
    ['/api.asmx/Pair', 'application/x-www-form-urlencoded; charset=iso-8859-1', formEncode(PAIR_FIELDS)],
  ];
  for (const [urlPath, contentType, body] of cases) {
    const a = await post(svc, urlPath, { 'content-type': contentType }, body);
    assertPlain(t, a, 415, `${contentType} to ${urlPath}`);
  }
});

test.serial('404: an unknown HTTP operation, over GET and POST', async (t) => {
  const get = await send(`${svc.url}/api.asmx/Nope?${formEncode(PAIR_FIELDS)}`, {});
  assertPlain(t, get, 404, 'GET /api.asmx/Nope');
  const form = await post(svc, '/api.asmx/Nope', { 'content-type': 'application/x-www-form-urlencoded' }, formEncode(VALIDATE_FIELDS));
  assertPlain(t, form, 404, 'POST /api.asmx/Nope');
});

test.serial('400: a field repeated in the HTTP GET query (or the POST form), also under another letter case', async (t) => {
  const cases: Array<[Operation, FieldList]> = [
    [
      'ValidatePin',
      [
        ['pin', PIN],
        ['secretCode', SECRET],
        ['secretCode', 'Other-Secret-Value'],
      ],
    ],
    [
      'ValidatePin',
      [
        ['pin', PIN],
        ['pin', '000000'],
        ['secretCode', SECRET],
      ],
    ],
    [
      'Pair',
      [
        ['appName', 'Acme'],
        ['appInfo', 'alice'],
        ['secretCode', SECRET],
        ['SECRETCODE', SECRET],
      ],
    ],
  ];
  for (const [op, fields] of cases) {
    for (const variant of ['httpGet', 'httpPost'] as const) {
      assertClientError(t, await callRemembered(svc, variant, op, fields), variant, `repeated field in ${op}`, [
        ...LEAKS,
        'Other-Secret-Value',
      ]);
    }
  }
});

// ---------------------------------------------------------------- PINs are never errors

test.serial('ValidatePin: a malformed PIN is simply false, over every variant', async (t) => {
  const pins: Array<[string, string | undefined]> = [
    ['letters', 'abcdef'],
    ['5 digits', '92471'],
    ['7 digits', '9247110'],
    ['digits and letters', '92a711'],
    ['signed', '-92471'],
    ['non-ASCII digits', '٩٢٤٧١١'],
    ['empty', ''],
    ['absent', undefined],
  ];
  for (const variant of VARIANTS) {
    for (const [label, pin] of pins) {
      // A fresh secret per call, so that no failure count or replay state can interfere.
      const secret = `Malformed-${variant}-${label.replace(/\W/g, '')}-Z9`;
      const fields: FieldList =
        pin === undefined
          ? [['secretCode', secret]]
          : [
              ['pin', pin],
              ['secretCode', secret],
            ];
      assertBoolean(t, await callRemembered(svc, variant, 'ValidatePin', fields), variant, false, `PIN ${label}`);
    }
  }
});

test.serial('ValidatePin: white space around a correct PIN is ignored', async (t) => {
  // A different reference vector per variant, so that each correct PIN is used once.
  const vectors = [
    vector('12345678BXYT', 1111111109),
    vector('12345678BXYT', 1234567890),
    vector('JBSWY3DPEHPK3PXP', 2000000000),
    vector('12345678BXYT', 1763800000),
  ];
  const pad: Record<Variant, (pin: string) => string> = {
    soap11: (pin) => `  ${pin}\t`,
    soap12: (pin) => `\n\t${pin} \n`,
    httpGet: (pin) => ` ${pin} `,
    httpPost: (pin) => `\t${pin}\r\n`,
  };
  for (const [i, variant] of VARIANTS.entries()) {
    const v = vectors[i];
    svc.clock.set(v.unixTime * 1000);
    const wrong = v.pin.slice(0, 5) + String((Number(v.pin[5]) + 1) % 10);
    assertBoolean(
      t,
      await callRemembered(svc, variant, 'ValidatePin', [
        ['pin', pad[variant](wrong)],
        ['secretCode', v.secretCode],
      ]),
      variant,
      false,
      'padded wrong PIN',
    );
    assertBoolean(
      t,
      await callRemembered(svc, variant, 'ValidatePin', [
        ['pin', pad[variant](v.pin)],
        ['secretCode', v.secretCode],
      ]),
      variant,
      true,
      'padded correct PIN',
    );
  }
});

// --------------------------------------------------------------- afterwards: still fine

test.serial('after all the bad requests, valid calls still succeed over every variant', async (t) => {
  // A secret not validated before in this file, at increasing times (replay protection refuses older steps).
  const times = [1111111109, 1111111111, 1234567890, 2000000000];
  for (const [i, variant] of VARIANTS.entries()) {
    const code = manualSetupCode(
      t,
      await callRemembered(svc, variant, 'Pair', [
        ['appName', 'Acme'],
        ['appInfo', 'alice'],
        ['secretCode', '12345678BXYT'],
      ]),
      variant,
      'valid Pair',
    );
    t.is(code, 'GEZDGNBVGY3TQQSYLFKA');
    const v = vector('12345678901234567890', times[i]);
    svc.clock.set(v.unixTime * 1000);
    assertBoolean(
      t,
      await callRemembered(svc, variant, 'ValidatePin', [
        ['pin', v.pin],
        ['secretCode', v.secretCode],
      ]),
      variant,
      true,
      'valid ValidatePin',
    );
  }
});

test.serial('the logs of the whole file hold no secret, no PIN and no query string, and every error once', (t) => {
  for (const [name, service] of [
    ['utf8', svc],
    ['base32', b32],
  ] as const) {
    const text = service.logs();
    const lines = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.true(lines.length > 20, `${name}: too few log lines`);

    // Only the string values: numbers (durations) may hold any digits by chance.
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          strings.push(k);
          collect(v);
        }
      }
    };
    lines.forEach(collect);

    t.false(text.includes(SECRET), `${name}: the canary secret is in the logs`);
    const secrets = [...sentSecrets].filter((s) => s.length >= 8);
    const pins = [...sentPins].map((p) => p.trim()).filter((p) => p.length >= 5);
    t.true(pins.length >= 5, 'PINs were sent');
    // Request ids are random UUIDs: their hex digits hold any five-digit run by chance (one in ~3 000 ids holds a given
    // PIN), so a value that is exactly a UUID is left out of the PIN and secret search; it cannot carry either.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    t.true(
      lines.some((l) => typeof l.id === 'string' && uuid.test(l.id)),
      `${name}: request ids are UUIDs`,
    );
    for (const s of strings) {
      if (uuid.test(s)) continue;
      for (const secret of secrets)
        t.false(s.includes(secret), `${name}: secret ${JSON.stringify(secret)} in log value ${JSON.stringify(s)}`);
      for (const pin of pins) t.false(s.includes(pin), `${name}: PIN ${JSON.stringify(pin)} in log value ${JSON.stringify(s)}`);
      t.false(/\/api\.asmx(\/\w*)?\?/i.test(s), `${name}: query string in log value ${JSON.stringify(s)}`);
      t.false(/secretCode=|pin=/i.test(s), `${name}: form or query fields in log value ${JSON.stringify(s)}`);
    }

    const requests = lines.filter((l) => l.event === 'request');
    for (const r of requests) t.false(String(r.path).includes('?'), `${name}: path with a query: ${r.path}`);
    t.true(
      requests.some((r) => r.method === 'GET' && r.path === '/api.asmx/:operation' && r.operation === 'ValidatePin'),
      `${name}: GET calls were logged`,
    );

    // Every error logged once: as many refused/error events as answers of 400 and up.
    const failed = requests.filter((r) => (r.status as number) >= 400).length;
    const errors = lines.filter((l) => l.event === 'refused' || l.event === 'error').length;
    t.true(failed > 0, `${name}: errors were made`);
    t.is(errors, failed, `${name}: error events vs failed requests`);
  }
});
