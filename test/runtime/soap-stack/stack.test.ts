/**
 * The SOAP header stack (src/runtime/soap-stack/) on the calculator fixture contract, its routes given policies by
 * hand: WS-Addressing 1.0 and 2004/08 (the answer's headers, the faults of WS-Addressing 1.0 SOAP Binding §6),
 * WS-Security's Timestamp and UsernameToken (text and digest, replay, skew, the authenticate hook and its principal),
 * mustUnderstand, call.header, and an operation with no policy answered byte for byte as one of a contract with none.
 * Every answer is checked against the SOAP envelope rules, in both SOAP versions.
 */
import test, { type ExecutionContext } from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import type { AddressingHeaders, Authenticate, Call, ContractDefinition, Credential, SoapPolicy } from '../../../src/runtime/definition';
import { clientError } from '../../../src/runtime/errors';
import { createContractApp } from '../../../src/runtime/host';
import { NonceCache } from '../../../src/runtime/soap-stack/nonce-cache';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../../support/fixture-contract';
import { childElements, elementAt, elementsAt, loadReaders, readXml, textOf } from '../../support/readers';
import { type Answer, readFault, send, soapEnvelope } from '../../support/requests';
import { SOAP_CONTENT_TYPES, SOAP_ENVELOPE_NAMESPACES, type SoapVersionName, assertSoapEnvelope } from '../../support/xml-assertions';
import { HOST_SETTINGS } from '../../../src/runtime/listener-settings';
import pino from 'pino';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { XsdValidator } from '../../../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../../../src/runtime/xml/xml-schema';

const NS = 'http://calculator.example.org/';
const WSA = 'http://www.w3.org/2005/08/addressing';
const WSA04 = 'http://schemas.xmlsoap.org/ws/2004/08/addressing';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0';
const FAILED = 'The security token could not be authenticated or authorized';
const ADD_IN = `${NS}Add`;
const ADD_OUT = `${NS}CalculatorSoap/AddResponse`;
const VERSIONS: readonly SoapVersionName[] = ['1.1', '1.2'];

/**
 * The SOAP 1.1 and 1.2 envelope schemas with WS-Addressing 1.0's, wsse's and wsu's (codegen/standard/'s copies): the
 * envelopes' lax wildcards validate every header block and fault whose element these declare.
 */
const STANDARD_SCHEMAS = [
  'www.w3.org/2001/xml.xsd',
  'schemas.xmlsoap.org/soap/envelope.xsd',
  'www.w3.org/2003/05/soap-envelope.xsd',
  'www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd',
  'www.w3.org/2005/08/addressing/ws-addr.xsd',
  'docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
  'docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
];
let envelopeSchemas: XsdValidator;

let fixture: FixtureContract;
const served: ServedFixture[] = [];
test.before(async () => {
  await loadReaders();
  fixture = await generateFixture('calculator');
  const standard = join(__dirname, '..', '..', '..', 'codegen', 'standard');
  envelopeSchemas = compileSchemaSet(STANDARD_SCHEMAS.map((file) => readFileSync(join(standard, file), 'utf8')));
});
test.after.always(async () => {
  for (const server of served) await server.close();
  fixture?.remove();
});

/** The calculator with `policy` (both SOAP versions) on Add, and Add's actions. */
function withPolicy(policy: SoapPolicy | undefined, operation = 'Add'): ContractDefinition<AnyOperations> {
  const route = fixture.definition.routes[operation];
  return {
    ...fixture.definition,
    routes: {
      ...fixture.definition.routes,
      [operation]: {
        ...route,
        policies: policy && { soap11: policy, soap12: policy },
        addressingActions: { input: ADD_IN, output: ADD_OUT },
      },
    },
  };
}

/** The Call each handler was handed, by the request id of its call (the tests run at once). */
const handed = new Map<string, Call>();
/** The Call the handler was handed for `answer`'s call. */
const callOf = (answer: Answer) => handed.get(answer.headers.get('x-request-id') ?? '');
const handlers = {
  Add: async (request: { intA: number; intB: number }, call: Call) => {
    handed.set(call.requestId ?? '', call);
    if (request.intA === 13) throw clientError('Thirteen is not added here.');
    return request.intA + request.intB;
  },
};

async function serve(
  definition: ContractDefinition<AnyOperations>,
  options: Parameters<typeof serveFixture>[3] = {},
): Promise<ServedFixture> {
  const server = await serveFixture(definition, handlers as never, {}, options);
  served.push(server);
  return server;
}

const addElement = (a = 2, b = 3) => `<Add xmlns="${NS}"><intA>${a}</intA><intB>${b}</intB></Add>`;

/** POSTs an Add envelope with `header` (the Header's content; none: no Header) in `version`. */
function post(
  server: ServedFixture,
  version: SoapVersionName,
  header?: string,
  body = addElement(),
  extra: Record<string, string> = {},
): Promise<Answer> {
  const p = 'soap';
  const envelope = soapEnvelope(version, body, header === undefined ? {} : { header: `<${p}:Header>${header}</${p}:Header>` });
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'Content-Type': SOAP_CONTENT_TYPES['1.1'], SOAPAction: `"${ADD_IN}"` }
      : { 'Content-Type': `${SOAP_CONTENT_TYPES['1.2']}; action="${ADD_IN}"` };
  return send(server.endpoint, { method: 'POST', headers: { ...headers, ...extra }, body: envelope });
}

/** The mustUnderstand attribute as each version writes "yes". */
const mustUnderstand = (version: SoapVersionName) => ` soap:mustUnderstand="${version === '1.1' ? '1' : 'true'}"`;

/** WS-Addressing request headers. */
function addressing(
  version: SoapVersionName,
  o: { ns?: string; action?: string; messageId?: string; replyTo?: string; understand?: boolean } = {},
): string {
  const ns = o.ns ?? WSA;
  const mu = o.understand ? mustUnderstand(version) : '';
  const reply = o.replyTo === undefined ? '' : `<wsa:ReplyTo xmlns:wsa="${ns}"><wsa:Address>${o.replyTo}</wsa:Address></wsa:ReplyTo>`;
  return (
    `<wsa:Action xmlns:wsa="${ns}"${mu}>${o.action ?? ADD_IN}</wsa:Action>` +
    `<wsa:MessageID xmlns:wsa="${ns}">${o.messageId ?? 'urn:uuid:6b1d0c83-1d4c-4a0e-9f5e-8f0c3a1b2c3d'}</wsa:MessageID>` +
    `<wsa:To xmlns:wsa="${ns}"${mu}>http://127.0.0.1/Calculator.asmx</wsa:To>${reply}`
  );
}

interface ReadAnswer {
  /** By `{namespace}local`, the text of each header block. */
  headers: Map<string, string>;
  /** The body's element: `{namespace}local`. */
  content: string;
  /** The text of the body element's descendants (an answer's result). */
  text: string;
  /** SOAP 1.2: the subcode values, outermost first, as `{namespace}local`. */
  subcodes: string[];
  /** The Detail's (1.2) or the wsa:FaultDetail header's (1.1) elements, as `{namespace}local=text`. */
  detail: string[];
}

/** The answer checked against the SOAP envelope rules, and read. */
function readAnswer(t: ExecutionContext, answer: Answer, version: SoapVersionName): ReadAnswer {
  const env = { env: SOAP_ENVELOPE_NAMESPACES[version] };
  const name = (e: { namespaceUri: string; name: string }) => `{${e.namespaceUri}}${e.name}`;
  const content = assertSoapEnvelope(t, answer.body, version, (element) => name(element));
  return readXml(answer.body, (doc) => {
    try {
      envelopeSchemas.validate(doc);
      t.pass();
    } catch (error) {
      t.fail(`the answer does not match the SOAP, WS-Addressing and WS-Security schemas: ${firstLibxmlMessage(error)}`);
    }
    const headers = new Map<string, string>();
    for (const block of elementsAt(doc, '/env:Envelope/env:Header/*', env)) headers.set(name(block), textOf(block));
    const subcodes = elementsAt(doc, '//env:Subcode/env:Value', env).map((value) => {
      const [prefix, local] = textOf(value).trim().split(':');
      return `{${value.namespaces[prefix] ?? ''}}${local}`;
    });
    const detailRoot =
      version === '1.2'
        ? elementAt(doc, '/env:Envelope/env:Body/env:Fault/env:Detail', env)
        : elementAt(doc, '/env:Envelope/env:Header/wsa:FaultDetail', { ...env, wsa: WSA });
    const detail = detailRoot ? childElements(detailRoot).map((e) => `${name(e)}=${textOf(e)}`) : [];
    const body = elementAt(doc, '/env:Envelope/env:Body/*', env)!;
    return { headers, content, text: textOf(body), subcodes, detail };
  });
}

/** A fault answer's code as `{namespace}local` (SOAP 1.1's faultcode, SOAP 1.2's Code/Value), and its reason. */
function faultOf(answer: Answer, version: SoapVersionName): { code: string; reason: string } {
  const fault = readFault(answer.body, version);
  return { code: `{${fault.codeNamespace}}${fault.codeLocalName}`, reason: fault.reason };
}

// --- An operation with no policy ---------------------------------------------------------------------------------

test('an operation with no policy is answered byte for byte as in a contract with no policy at all, fault and mustUnderstand alike', async (t) => {
  const plain = await serve(fixture.definition);
  const beside = await serve(withPolicy({ addressing: 'required' }, 'Subtract'));
  for (const version of VERSIONS) {
    for (const [header, body] of [
      [undefined, addElement()],
      [undefined, addElement(13)],
      ['', addElement()],
      [addressing(version, { understand: true }), addElement()],
    ] as const) {
      const [a, b] = [await post(plain, version, header, body), await post(beside, version, header, body)];
      t.is(b.status, a.status);
      t.is(b.contentType, a.contentType);
      t.is(b.body, a.body, `SOAP ${version}, ${header === undefined ? 'no Header' : 'a Header'}`);
    }
    const understood = readAnswer(t, await post(beside, version, addressing(version, { understand: true })), version);
    t.is(
      understood.content,
      `{${SOAP_ENVELOPE_NAMESPACES[version]}}Fault`,
      'Add does not understand wsa:Action: only Subtract has addressing',
    );
    t.is(
      faultOf(await post(beside, version, addressing(version, { understand: true })), version).code,
      `{${SOAP_ENVELOPE_NAMESPACES[version]}}MustUnderstand`,
    );
  }
});

// --- WS-Addressing ------------------------------------------------------------------------------------------------

for (const version of VERSIONS) {
  const env = SOAP_ENVELOPE_NAMESPACES[version];
  const sender = version === '1.1' ? undefined : `{${env}}Sender`;

  test(`SOAP ${version}: WS-Addressing 1.0 answered with Action, MessageID and RelatesTo; the handler sees the headers; mustUnderstand on them is understood`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const messageId = `urn:uuid:${randomBytes(16).toString('hex')}`;
    const sent = await post(server, version, addressing(version, { messageId, understand: true, replyTo: `${WSA}/anonymous` }));
    const answer = readAnswer(t, sent, version);
    t.is(answer.content, `{${NS}}AddResponse`);
    t.is(answer.text, '5');
    t.is(answer.headers.get(`{${WSA}}Action`), ADD_OUT);
    t.is(answer.headers.get(`{${WSA}}RelatesTo`), messageId);
    t.regex(answer.headers.get(`{${WSA}}MessageID`) ?? '', /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    t.false(answer.headers.has(`{${WSA}}To`), 'WS-Addressing 1.0 leaves out an anonymous To');
    t.deepEqual(callOf(sent)?.addressing, {
      version: 'wsa10',
      action: ADD_IN,
      messageId,
      to: 'http://127.0.0.1/Calculator.asmx',
      replyTo: `${WSA}/anonymous`,
      from: undefined,
      relatesTo: undefined,
    } satisfies AddressingHeaders);
  });

  test(`SOAP ${version}: the 2004/08 submission is answered in its own namespace, with To anonymous`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const sent = await post(server, version, addressing(version, { ns: WSA04, understand: true }));
    const answer = readAnswer(t, sent, version);
    t.is(answer.text, '5');
    t.is(answer.headers.get(`{${WSA04}}Action`), ADD_OUT);
    t.is(answer.headers.get(`{${WSA04}}RelatesTo`), 'urn:uuid:6b1d0c83-1d4c-4a0e-9f5e-8f0c3a1b2c3d');
    t.is(answer.headers.get(`{${WSA04}}To`), `${WSA04}/role/anonymous`);
    t.false(
      [...answer.headers.keys()].some((k) => k.startsWith(`{${WSA}}`)),
      'nothing of WS-Addressing 1.0',
    );
    t.is(callOf(sent)?.addressing?.version, 'wsa200408');
  });

  test(`SOAP ${version}: a wrong Action is wsa:ActionNotSupported with its ProblemAction, answered with the fault action and RelatesTo`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const sent = await post(server, version, addressing(version, { action: `${NS}Nothing` }));
    t.is(sent.status, 500);
    const answer = readAnswer(t, sent, version);
    const fault = faultOf(sent, version);
    t.is(fault.code, sender ?? `{${WSA}}ActionNotSupported`);
    if (version === '1.2') t.deepEqual(answer.subcodes, [`{${WSA}}ActionNotSupported`]);
    t.is(fault.reason, 'The [action] cannot be processed at the receiver');
    t.deepEqual(answer.detail, [`{${WSA}}ProblemAction=${NS}Nothing`]);
    t.is(answer.headers.get(`{${WSA}}Action`), `${WSA}/fault`);
    t.is(answer.headers.get(`{${WSA}}RelatesTo`), 'urn:uuid:6b1d0c83-1d4c-4a0e-9f5e-8f0c3a1b2c3d');
  });

  test(`SOAP ${version}: a required-addressing operation called without the headers is wsa:MessageAddressingHeaderRequired, Header or none`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    for (const header of [undefined, '', `<x:Other xmlns:x="urn:other">1</x:Other>`]) {
      const sent = await post(server, version, header);
      const answer = readAnswer(t, sent, version);
      t.is(faultOf(sent, version).code, sender ?? `{${WSA}}MessageAddressingHeaderRequired`);
      if (version === '1.2') t.deepEqual(answer.subcodes, [`{${WSA}}MessageAddressingHeaderRequired`]);
      t.deepEqual(answer.detail, [`{${WSA}}ProblemHeaderQName=wsa:Action`]);
      t.is(answer.headers.get(`{${WSA}}Action`), `${WSA}/fault`);
      t.false(answer.headers.has(`{${WSA}}RelatesTo`), 'no MessageID to relate to');
    }
    // The 2004/08 submission names the same fault its own way.
    const sent = await post(server, version, `<wsa:MessageID xmlns:wsa="${WSA04}">urn:uuid:1</wsa:MessageID>`);
    const answer = readAnswer(t, sent, version);
    t.is(version === '1.1' ? faultOf(sent, version).code : answer.subcodes[0], `{${WSA04}}MessageInformationHeaderRequired`);
    t.is(answer.headers.get(`{${WSA04}}RelatesTo`), 'urn:uuid:1');
  });

  test(`SOAP ${version}: a ReplyTo that is not anonymous is refused: only the anonymous address is supported`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const sent = await post(server, version, addressing(version, { replyTo: 'http://client.example/replies' }));
    const answer = readAnswer(t, sent, version);
    t.is(faultOf(sent, version).code, sender ?? `{${WSA}}InvalidAddressingHeader`);
    if (version === '1.2') t.deepEqual(answer.subcodes, [`{${WSA}}InvalidAddressingHeader`, `{${WSA}}OnlyAnonymousAddressSupported`]);
    t.regex(faultOf(sent, version).reason, /Only the anonymous address is supported for ReplyTo/);
    t.deepEqual(answer.detail, [`{${WSA}}ProblemHeaderQName=wsa:ReplyTo`]);
  });

  test(`SOAP ${version}: a FaultTo that is not anonymous is refused alike; a wrong 2004/08 Action in its own namespace`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const faultTo = `<wsa:FaultTo xmlns:wsa="${WSA}"><wsa:Address>http://client.example/faults</wsa:Address></wsa:FaultTo>`;
    const sent = await post(server, version, addressing(version) + faultTo);
    t.regex(faultOf(sent, version).reason, /for FaultTo/);
    t.deepEqual(readAnswer(t, sent, version).detail, [`{${WSA}}ProblemHeaderQName=wsa:FaultTo`]);
    const old = await post(server, version, addressing(version, { ns: WSA04, action: `${NS}Nothing` }));
    const answer = readAnswer(t, old, version);
    t.is(version === '1.1' ? faultOf(old, version).code : answer.subcodes[0], `{${WSA04}}ActionNotSupported`);
    t.is(answer.headers.get(`{${WSA04}}Action`), `${WSA04}/fault`);
    t.is(answer.headers.get(`{${WSA04}}To`), `${WSA04}/role/anonymous`);
    t.deepEqual(answer.detail, [], 'the submission defines no ProblemAction');
    if (version === '1.2') t.deepEqual(answer.subcodes, [`{${WSA04}}ActionNotSupported`]);
    const reply = await post(server, version, addressing(version, { ns: WSA04, replyTo: 'http://client.example/replies' }));
    const refused = readAnswer(t, reply, version);
    t.is(version === '1.1' ? faultOf(reply, version).code : refused.subcodes.join(' '), `{${WSA04}}InvalidMessageInformationHeader`);
  });

  test(`SOAP ${version}: a fault of the handler carries the SOAP fault action and RelatesTo`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required' }));
    const sent = await post(server, version, addressing(version), addElement(13));
    const answer = readAnswer(t, sent, version);
    t.is(faultOf(sent, version).reason, 'Thirteen is not added here.');
    t.is(answer.headers.get(`{${WSA}}Action`), `${WSA}/soap/fault`);
    t.is(answer.headers.get(`{${WSA}}RelatesTo`), 'urn:uuid:6b1d0c83-1d4c-4a0e-9f5e-8f0c3a1b2c3d');
  });

  test(`SOAP ${version}: under optional addressing a call without the headers is answered as without a policy; with them, addressed`, async (t) => {
    const plain = await serve(fixture.definition);
    const optional = await serve(withPolicy({ addressing: 'optional' }));
    for (const header of [undefined, '']) {
      const sent = await post(optional, version, header);
      t.is(sent.body, (await post(plain, version, header)).body);
      t.false('addressing' in (callOf(sent) ?? {}), 'the Call has no addressing');
    }
    const answer = readAnswer(t, await post(optional, version, addressing(version)), version);
    t.is(answer.headers.get(`{${WSA}}Action`), ADD_OUT);
  });
}

// --- WS-Security --------------------------------------------------------------------------------------------------

const USERS: Record<string, string> = { alice: 'correct horse', bob: 'battery staple' };
/** The hook: the user's name as its principal when the password matches. */
const authenticate: Authenticate = (credential: Credential) =>
  credential.kind === 'usernameToken' && USERS[credential.username] !== undefined && credential.matches(USERS[credential.username])
    ? { user: credential.username }
    : undefined;

interface TokenOptions {
  username?: string;
  password?: string;
  digest?: boolean;
  nonce?: Buffer;
  created?: string;
  understand?: SoapVersionName;
  timestamp?: { created: string; expires?: string };
}

/** A wsse:Security header with a UsernameToken (and a Timestamp). */
function security(o: TokenOptions = {}): string {
  const nonce = o.nonce ?? randomBytes(16);
  const created = o.created ?? new Date().toISOString();
  const password = o.password ?? USERS.alice;
  const value = o.digest ? createHash('sha1').update(nonce).update(created).update(password).digest('base64') : password;
  const mu = o.understand ? mustUnderstand(o.understand) : '';
  const timestamp = o.timestamp
    ? `<wsu:Timestamp><wsu:Created>${o.timestamp.created}</wsu:Created>${o.timestamp.expires ? `<wsu:Expires>${o.timestamp.expires}</wsu:Expires>` : ''}</wsu:Timestamp>`
    : '';
  return (
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"${mu}>${timestamp}<wsse:UsernameToken>` +
    `<wsse:Username>${o.username ?? 'alice'}</wsse:Username>` +
    `<wsse:Password Type="${PROFILE}#${o.digest ? 'PasswordDigest' : 'PasswordText'}">${value}</wsse:Password>` +
    `<wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">${nonce.toString('base64')}</wsse:Nonce>` +
    `<wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>`
  );
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

for (const version of VERSIONS) {
  const env = SOAP_ENVELOPE_NAMESPACES[version];

  /** The answer is wsse:`local` in this version's form, with `reason` and no detail. */
  function assertSecurityFault(t: ExecutionContext, sent: Answer, local: string, reason = FAILED): void {
    t.is(sent.status, 500);
    const answer = readAnswer(t, sent, version);
    const fault = faultOf(sent, version);
    t.is(fault.code, version === '1.1' ? `{${WSSE}}${local}` : `{${env}}Sender`);
    if (version === '1.2') t.deepEqual(answer.subcodes, [`{${WSSE}}${local}`]);
    t.is(fault.reason, reason);
    t.deepEqual(answer.detail, []);
    readXml(sent.body, (doc) => {
      const detail = elementAt(doc, version === '1.1' ? '//detail' : '//env:Detail', { env });
      t.is(detail, null, 'no detail element: SOAP 1.1 gives a header fault none');
    });
  }

  test(`SOAP ${version}: a PasswordText token the hook accepts: the handler sees its principal; mustUnderstand on Security understood`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'text' } }), { authenticate });
    const sent = await post(server, version, security({ understand: version }));
    t.is(readAnswer(t, sent, version).text, '5');
    t.deepEqual(callOf(sent)?.principal, { user: 'alice' });
  });

  test(`SOAP ${version}: a wrong password is wsse:FailedAuthentication, no detail, one log line without password or nonce`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'any' } }), { authenticate });
    const nonce = randomBytes(16);
    const before = server.lines().length;
    const sent = await post(server, version, security({ password: 'wrong guess', nonce }));
    assertSecurityFault(t, sent, 'FailedAuthentication');
    t.false(sent.body.includes('alice'), 'the answer names no user');
    const lines = server.lines().slice(before);
    const refused = lines.filter((line) => line.event === 'refused');
    t.is(refused.length, 1);
    t.is(refused[0].msg, FAILED);
    t.is(refused[0].cause, 'WS-Security: the authenticate hook refused the token');
    const logged = JSON.stringify(lines);
    for (const leak of ['wrong guess', nonce.toString('base64'), 'alice']) t.false(logged.includes(leak), `the log holds no ${leak}`);
  });

  test(`SOAP ${version}: PasswordDigest right is accepted, wrong refused; a digest where the policy asks for text is refused`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'digest' } }), { authenticate });
    const sent = await post(server, version, security({ digest: true, username: 'bob', password: USERS.bob }));
    t.is(readAnswer(t, sent, version).text, '5');
    t.deepEqual(callOf(sent)?.principal, { user: 'bob' });
    assertSecurityFault(
      t,
      await post(server, version, security({ digest: true, username: 'bob', password: USERS.alice })),
      'FailedAuthentication',
    );
    assertSecurityFault(t, await post(server, version, security({ username: 'bob', password: USERS.bob })), 'FailedAuthentication');
    const text = await serve(withPolicy({ usernameToken: { password: 'text' } }), { authenticate });
    assertSecurityFault(t, await post(text, version, security({ digest: true })), 'FailedAuthentication');
  });

  test(`SOAP ${version}: a nonce seen again within the window is refused`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'digest' } }), { authenticate });
    const token = security({ digest: true, nonce: randomBytes(16) });
    t.is(readAnswer(t, await post(server, version, token), version).text, '5');
    const before = server.lines().length;
    assertSecurityFault(t, await post(server, version, token), 'FailedAuthentication');
    t.is(
      server
        .lines()
        .slice(before)
        .find((line) => line.event === 'refused')?.cause,
      'WS-Security: a nonce seen before',
    );
    // A refused token's nonce is not remembered: the right password with it afterwards is taken.
    const nonce = randomBytes(16);
    assertSecurityFault(t, await post(server, version, security({ digest: true, nonce, password: 'nope' })), 'FailedAuthentication');
    t.is(readAnswer(t, await post(server, version, security({ digest: true, nonce })), version).text, '5');
  });

  test(`SOAP ${version}: a full nonce cache refuses a new nonce; a digest without its nonce is refused`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'any' } }), { authenticate, soapSecurity: { nonceCacheSize: 1 } });
    t.is(readAnswer(t, await post(server, version, security()), version).text, '5');
    const before = server.lines().length;
    assertSecurityFault(t, await post(server, version, security()), 'FailedAuthentication');
    t.is(
      server
        .lines()
        .slice(before)
        .find((line) => line.event === 'refused')?.cause,
      'WS-Security: the nonce cache is full',
    );
    const created = new Date().toISOString();
    const digest = createHash('sha1').update(created).update(USERS.alice).digest('base64');
    const noNonce = `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"><wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type="${PROFILE}#PasswordDigest">${digest}</wsse:Password><wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>`;
    assertSecurityFault(t, await post(server, version, noNonce), 'FailedAuthentication');
  });

  test(`SOAP ${version}: a token created outside the clock skew is refused; a wider skew setting takes it`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'digest' } }), { authenticate });
    for (const offset of [-10, 10]) {
      assertSecurityFault(t, await post(server, version, security({ digest: true, created: minutes(offset) })), 'FailedAuthentication');
    }
    t.is(readAnswer(t, await post(server, version, security({ digest: true, created: minutes(-4) })), version).text, '5');
    const wide = await serve(withPolicy({ usernameToken: { password: 'digest' } }), {
      authenticate,
      soapSecurity: { clockSkewSeconds: 900 },
    });
    t.is(readAnswer(t, await post(wide, version, security({ digest: true, created: minutes(-10) })), version).text, '5');
  });

  test(`SOAP ${version}: a missing token, a missing Security header or no Header at all, where the policy asks for a token: FailedAuthentication`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'any' } }), { authenticate });
    for (const header of [undefined, '', `<wsse:Security xmlns:wsse="${WSSE}"></wsse:Security>`]) {
      assertSecurityFault(t, await post(server, version, header), 'FailedAuthentication');
    }
  });

  test(`SOAP ${version}: a malformed Security header is wsse:InvalidSecurity`, async (t) => {
    const server = await serve(withPolicy({ usernameToken: { password: 'any' }, timestamp: true }), { authenticate });
    const timestamp = { created: minutes(0), expires: minutes(5) };
    const reason = 'An error was discovered processing the <wsse:Security> header';
    assertSecurityFault(t, await post(server, version, security({ timestamp: { created: 'yesterday' } })), 'InvalidSecurity', reason);
    assertSecurityFault(t, await post(server, version, security({ timestamp, created: '2026-01-01T00:00:00' })), 'InvalidSecurity', reason);
    assertSecurityFault(t, await post(server, version, security({ timestamp }) + security({ timestamp })), 'InvalidSecurity', reason);
    assertSecurityFault(t, await post(server, version, security()), 'InvalidSecurity', reason);
  });

  test(`SOAP ${version}: a Timestamp expired or created too far in the future is refused; the answer carries one of its own`, async (t) => {
    const server = await serve(withPolicy({ timestamp: true }));
    const only = (created: string, expires?: string) =>
      `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"${mustUnderstand(version)}><wsu:Timestamp><wsu:Created>${created}</wsu:Created>${expires ? `<wsu:Expires>${expires}</wsu:Expires>` : ''}</wsu:Timestamp></wsse:Security>`;
    assertSecurityFault(t, await post(server, version, only(minutes(-20), minutes(-10))), 'MessageExpired', 'The message has expired');
    assertSecurityFault(t, await post(server, version, only(minutes(10), minutes(15))), 'MessageExpired', 'The message has expired');
    const sent = await post(server, version, only(minutes(0), minutes(5)));
    const answer = readAnswer(t, sent, version);
    t.is(answer.text, '5');
    readXml(sent.body, (doc) => {
      const ns = { env, wsse: WSSE, wsu: WSU };
      const created = elementAt(doc, '/env:Envelope/env:Header/wsse:Security/wsu:Timestamp/wsu:Created', ns);
      const expires = elementAt(doc, '/env:Envelope/env:Header/wsse:Security/wsu:Timestamp/wsu:Expires', ns);
      t.truthy(created && expires, 'the answer has wsu:Timestamp with Created and Expires');
      const [c, e] = [Date.parse(textOf(created!)), Date.parse(textOf(expires!))];
      t.true(Math.abs(c - Date.now()) < 120_000, 'created now');
      t.is(e - c, 300_000, 'valid five minutes');
    });
    assertSecurityFault(t, await post(server, version), 'InvalidSecurity', 'An error was discovered processing the <wsse:Security> header');
  });

  test(`SOAP ${version}: mustUnderstand on wsse:Security is refused where no policy reads it, and on a block no step knows where one does`, async (t) => {
    const plain = await serve(fixture.definition);
    const sent = await post(plain, version, security({ understand: version }));
    t.is(faultOf(sent, version).code, `{${env}}MustUnderstand`);
    const addressed = await serve(withPolicy({ addressing: 'required' }));
    const other = await post(
      addressed,
      version,
      `${addressing(version)}<x:Other xmlns:x="urn:other"${mustUnderstand(version)}>1</x:Other>`,
    );
    t.is(faultOf(other, version).code, `{${env}}MustUnderstand`);
    t.is(readAnswer(t, other, version).content, `{${env}}Fault`);
    const secured = await post(addressed, version, addressing(version) + security({ understand: version }));
    t.is(
      faultOf(secured, version).code,
      `{${env}}MustUnderstand`,
      'Security is understood only where a policy asks for a token or a timestamp',
    );
  });

  test(`SOAP ${version}: addressing and a token together: a refusal still carries wsa:Action and RelatesTo`, async (t) => {
    const server = await serve(withPolicy({ addressing: 'required', usernameToken: { password: 'text' } }), { authenticate });
    const sent = await post(
      server,
      version,
      addressing(version, { understand: true }) + security({ password: 'bad', understand: version }),
    );
    assertSecurityFault(t, sent, 'FailedAuthentication');
    const answer = readAnswer(t, sent, version);
    t.is(answer.headers.get(`{${WSA}}Action`), `${WSA}/soap/fault`);
    t.is(answer.headers.get(`{${WSA}}RelatesTo`), 'urn:uuid:6b1d0c83-1d4c-4a0e-9f5e-8f0c3a1b2c3d');
    const accepted = await post(server, version, addressing(version) + security());
    t.is(readAnswer(t, accepted, version).headers.get(`{${WSA}}Action`), ADD_OUT);
    t.deepEqual(callOf(accepted)?.principal, { user: 'alice' });
    t.is(callOf(accepted)?.addressing?.action, ADD_IN);
  });
}

// --- Start-up, the nonce cache, call.header ------------------------------------------------------------------------

test('a policy that asks for a token without an authenticate hook, or for X.509 signatures without a trust store, stops the start', (t) => {
  const logger = pino({ level: 'silent' });
  const settings = HOST_SETTINGS.defaults();
  t.throws(() => createContractApp(withPolicy({ usernameToken: { password: 'any' } }), handlers as never, settings, logger), {
    message: /authenticate hook/,
  });
  const signature = { body: true, headers: [], digest: 'sha256', signAnswer: false } as const;
  t.throws(() => createContractApp(withPolicy({ signature }), handlers as never, settings, logger, { authenticate }), {
    message: /X\.509/,
  });
});

test('the nonce cache remembers each nonce until its expiry, and refuses new ones when full of live ones', (t) => {
  const cache = new NonceCache(2);
  t.is(cache.add('a', 0, 100), 'added');
  t.is(cache.add('a', 10, 110), 'replayed');
  t.true(cache.has('a', 50));
  t.is(cache.add('b', 20, 120), 'added');
  t.is(cache.add('c', 30, 130), 'full');
  t.false(cache.has('c', 30));
  t.is(cache.add('c', 100, 200), 'added', 'a forgotten when its window is over');
  t.false(cache.has('a', 100));
  t.is(cache.size, 2);
  t.throws(() => new NonceCache(0));
});

test('call.header reads the HTTP request headers by any case: a handler reading Authorization and a tenant header', async (t) => {
  const seen: (string | undefined)[][] = [];
  const definition = fixture.definition;
  const server = await serveFixture(definition, {
    Add: async (request: { intA: number; intB: number }, call: Call) => {
      seen.push([call.header('authorization'), call.header('X-Tenant'), call.header('x-absent')]);
      return request.intA + request.intB;
    },
  } as never);
  served.push(server);
  for (const version of VERSIONS) {
    await post(server, version, undefined, addElement(), { Authorization: 'Bearer abc.def', 'X-Tenant': 'north' });
  }
  t.deepEqual(seen, [
    ['Bearer abc.def', 'north', undefined],
    ['Bearer abc.def', 'north', undefined],
  ]);
});
