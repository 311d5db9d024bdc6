/**
 * Issue 28, done when real clients call an added operation: against one copy
 * of the repository with GenerateSecret added (schema/ plus one handler
 * module: test/support/added-operation.ts), clients of three ecosystems read
 * the copy's /api.asmx?WSDL and call it:
 *  - Python zeep (Debian python3-zeep), on the SOAP 1.1 and SOAP 1.2 ports,
 *    GenerateSecret and ValidatePin: CreatedUtc decoded as a datetime,
 *    Warnings as a list, Secret of the length asked;
 *  - PHP's SoapClient (php-cli, php-soap), WSDL mode, SOAP_1_1 and SOAP_1_2;
 *  - .NET (Mono: mono-mcs, mono-devel), a proxy class `wsdl` generates from
 *    the served WSDL (SOAP and SOAP12), compiled by `mcs` with a small program
 *    (clients/GenerateSecretProxyClient.cs): CreatedUtc a DateTime, Warnings a
 *    string[].
 * Schema-valid both ways: the service validates every SOAP body it receives
 * against the copy's schema (libxml2) and answers an invalid one with a
 * client fault, so each answered call proves the client's request valid; the
 * envelopes zeep and SoapClient sent and received (zeep's HistoryPlugin, PHP's
 * trace) are validated here too, against the copy's schema/api.xsd. The
 * service's request log shows every call over the variant under test, answered 200.
 * A missing client is a failure naming the Debian packages to install (.ci/run installs them).
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAddedOperation, type AddedOperation } from '../support/added-operation';
import { pinFor, wrongPinFor } from '../support/requests';
import { CLIENTS_DIR, PYTHON, bounded, haveTool, runJsonClient, type Typed, type TypedResult } from './clients/harness';

const REAL_CLOCK = { clock: { now: () => Date.now() } };
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** xsd:dateTime as the service writes it (UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** The handler's one warning, for a secret shorter than 16 characters. */
const SHORT_WARNING = 'shorter than 16 characters: easy to guess';

let added: AddedOperation | undefined;
let work: string | undefined;

test.before(async (t) => {
  t.timeout(420_000, 'copy, generate, type-check and start the copy');
  added = await startAddedOperation();
  work = mkdtempSync(join(tmpdir(), 'pin-add-operation-clients-'));
});

test.after.always(async () => {
  await added?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The calls every client makes: a secret of 20 of a given alphabet (no warnings), one of 12 of Base32's (one warning). */
const GENERATE = [
  { length: 20, alphabet: 'XYZ', warnings: [] as string[] },
  { length: 12, alphabet: undefined, warnings: [SHORT_WARNING] },
] as const;

/** A Secret of `length` characters of `alphabet` (Base32's when none was given). */
function checkSecret(t: ExecutionContext, secret: unknown, length: number, alphabet: string | undefined, what: string): void {
  t.is(typeof secret, 'string', `${what}: Secret is a string`);
  t.is((secret as string).length, length, `${what}: Secret has the length asked`);
  t.true(
    [...(secret as string)].every((c) => (alphabet ?? BASE32).includes(c)),
    `${what}: Secret is of ${alphabet ?? 'Base32'}: ${secret}`,
  );
}

/** A time CreatedUtc gave, as epoch milliseconds: now, give or take a minute. */
function checkNow(t: ExecutionContext, iso: string, what: string): void {
  t.true(Math.abs(Date.parse(iso) - Date.now()) < 60_000, `${what}: CreatedUtc is now (${iso})`);
}

/** The request-log lines the service wrote after the first `from` of them. */
function requestsSince(from: number): { variant?: string; operation?: string; status: number }[] {
  return added!.service
    .output()
    .split('\n')
    .filter((line) => line.includes('"event":"request"'))
    .slice(from)
    .map((line) => JSON.parse(line));
}
const requestCount = () => requestsSince(0).length;

/**
 * Every call the service saw since `from`: `expected` (operation over variant), each answered 200. The log
 * line of a request may reach us a little after its answer: waits for them (bounded).
 */
async function checkSeen(t: ExecutionContext, from: number, expected: string[]): Promise<void> {
  const seen = () => requestsSince(from).filter((r) => r.operation !== undefined);
  for (const deadline = Date.now() + 5000; seen().length < expected.length && Date.now() < deadline; ) await sleep(50);
  t.deepEqual(
    seen().map((r) => `${r.operation} over ${r.variant}: ${r.status}`),
    expected.map((call) => `${call}: 200`),
    'the service saw each call over the variant under test and answered it',
  );
}

/** The request a client sent and the answer it received, both valid against the copy's schema. */
function checkEnvelopes(t: ExecutionContext, result: TypedResult, what: string): void {
  t.deepEqual(added!.bodyErrors(result.sent ?? ''), [], `${what}: the request sent is valid against the copy's schema/api.xsd`);
  t.deepEqual(added!.bodyErrors(result.received ?? ''), [], `${what}: the answer received is valid against the copy's schema/api.xsd`);
}

const fields = (typed: Typed) => typed.value as Record<string, Typed>;

// --- Python zeep -------------------------------------------------------------------------------

const ZEEP_PORTS = [
  { port: 'AuthenticatorAPISoap', variant: 'soap11' },
  { port: 'AuthenticatorAPISoap12', variant: 'soap12' },
] as const;

for (const { port, variant } of ZEEP_PORTS) {
  test.serial(
    `zeep, ${port} port: GenerateSecret (length and alphabet; length only) and ValidatePin, typed as zeep decodes them`,
    async (t) => {
      if (!haveTool(t, PYTHON, ['-c', 'import zeep'], 'python3-zeep')) return;
      const secretCode = `added-zeep-${variant}-${Math.random().toString(36).slice(2)}`;
      const calls = [
        ...GENERATE.map(({ length, alphabet }) => ({ op: 'GenerateSecret', args: alphabet ? { length, alphabet } : { length } })),
        { op: 'ValidatePin', args: { pin: wrongPinFor(REAL_CLOCK, secretCode), secretCode } },
        { op: 'ValidatePin', args: { pin: pinFor(REAL_CLOCK, secretCode), secretCode } },
      ];
      const from = requestCount();
      const { zeep, results } = await runJsonClient<{ zeep: string; results: TypedResult[] }>(
        PYTHON,
        [join(CLIENTS_DIR, 'zeep_typed_client.py')],
        { wsdl: `${added!.url}/api.asmx?WSDL`, port, calls },
      );
      t.log(`zeep ${zeep}, ${port}: ${results.length} calls`);
      t.is(results.length, calls.length, 'one result per call');
      GENERATE.forEach(({ length, alphabet, warnings }, i) => {
        const what = `GenerateSecret(${length}${alphabet ? `, ${alphabet}` : ''})`;
        const result = results[i];
        t.deepEqual({ fault: result.fault, error: result.error }, { fault: undefined, error: undefined }, what);
        t.is(result.ok?.type, 'zeep.objects.SecretInfo', `${what}: a SecretInfo`);
        const info = fields(result.ok!);
        t.deepEqual(Object.keys(info), ['Secret', 'CreatedUtc', 'Warnings'], `${what}: SecretInfo's fields`);
        t.is(info.Secret.type, 'builtins.str', what);
        checkSecret(t, info.Secret.value, length, alphabet, what);
        t.is(info.CreatedUtc.type, 'datetime.datetime', `${what}: CreatedUtc decoded as a datetime`);
        t.is(info.CreatedUtc.utcOffsetSeconds, 0, `${what}: CreatedUtc is in UTC`);
        checkNow(t, info.CreatedUtc.value as string, what);
        if (warnings.length === 0) {
          // zeep reads an empty ArrayOfString (<Warnings></Warnings>) as None; an empty list would do as well.
          const empty = info.Warnings.value === null || (fields(info.Warnings).string?.value as unknown[] | undefined)?.length === 0;
          t.true(empty, `${what}: no warnings (${JSON.stringify(info.Warnings)})`);
        } else {
          t.is(info.Warnings.type, 'zeep.objects.ArrayOfString', `${what}: Warnings is an ArrayOfString`);
          const list = fields(info.Warnings).string;
          t.is(list.type, 'builtins.list', `${what}: its strings are a list`);
          t.deepEqual(
            (list.value as Typed[]).map((w) => `${w.type} ${w.value}`),
            warnings.map((w) => `builtins.str ${w}`),
            `${what}: the warnings`,
          );
        }
        checkEnvelopes(t, result, what);
      });
      const validations = results.slice(GENERATE.length);
      t.deepEqual(
        validations.map((r) => r.ok),
        [
          { type: 'builtins.bool', value: false },
          { type: 'builtins.bool', value: true },
        ],
        'ValidatePin: a wrong PIN false, the current one true (booleans)',
      );
      validations.forEach((result, i) => {
        checkEnvelopes(t, result, `ValidatePin ${i + 1}`);
      });
      await checkSeen(t, from, [
        ...GENERATE.map(() => `GenerateSecret over ${variant}`),
        `ValidatePin over ${variant}`,
        `ValidatePin over ${variant}`,
      ]);
    },
  );
}

// --- PHP SoapClient ----------------------------------------------------------------------------

const PHP_VERSIONS = [
  { soapVersion: '1.1', constant: 'SOAP_1_1', variant: 'soap11' },
  { soapVersion: '1.2', constant: 'SOAP_1_2', variant: 'soap12' },
] as const;

for (const { soapVersion, constant, variant } of PHP_VERSIONS) {
  test.serial(
    `PHP SoapClient, WSDL mode, ${constant}: GenerateSecret (length and alphabet; length only), typed as SoapClient decodes them`,
    async (t) => {
      if (!haveTool(t, 'php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap')) return;
      const calls = GENERATE.map(({ length, alphabet }) => ({ op: 'GenerateSecret', args: alphabet ? { length, alphabet } : { length } }));
      const from = requestCount();
      const { php, results } = await runJsonClient<{ php: string; results: TypedResult[] }>(
        'php',
        [join(CLIENTS_DIR, 'soapclient_typed.php')],
        {
          wsdl: `${added!.url}/api.asmx?WSDL`,
          soapVersion,
          calls,
        },
      );
      t.log(`PHP ${php}, ${constant}: ${results.length} calls`);
      t.is(results.length, calls.length, 'one result per call');
      GENERATE.forEach(({ length, alphabet, warnings }, i) => {
        const what = `GenerateSecret(${length}${alphabet ? `, ${alphabet}` : ''})`;
        const result = results[i];
        t.deepEqual({ fault: result.fault, error: result.error }, { fault: undefined, error: undefined }, what);
        const response = fields(result.ok!);
        t.is(response.GenerateSecretResult?.type, 'stdClass', `${what}: GenerateSecretResult is an object`);
        const info = fields(response.GenerateSecretResult);
        t.deepEqual(Object.keys(info), ['Secret', 'CreatedUtc', 'Warnings'], `${what}: SecretInfo's fields`);
        t.is(info.Secret.type, 'string', what);
        checkSecret(t, info.Secret.value, length, alphabet, what);
        // SoapClient leaves an xsd:dateTime its lexical form (a string) unless a typemap says otherwise.
        t.is(info.CreatedUtc.type, 'string', `${what}: CreatedUtc as SoapClient gives an xsd:dateTime`);
        t.regex(info.CreatedUtc.value as string, DATE_TIME, `${what}: CreatedUtc is an xsd:dateTime`);
        checkNow(t, info.CreatedUtc.value as string, what);
        t.is(info.Warnings.type, 'stdClass', `${what}: Warnings is an ArrayOfString object`);
        const list = fields(info.Warnings).string as Typed | undefined;
        if (warnings.length === 0) {
          t.is(list, undefined, `${what}: no warnings (${JSON.stringify(info.Warnings)})`);
        } else {
          t.is(list?.type, 'array', `${what}: its strings are an array (SOAP_SINGLE_ELEMENT_ARRAYS)`);
          t.deepEqual(
            ((list?.value ?? []) as Typed[]).map((w) => `${w.type} ${w.value}`),
            warnings.map((w) => `string ${w}`),
            `${what}: the warnings`,
          );
        }
        checkEnvelopes(t, result, what);
      });
      await checkSeen(
        t,
        from,
        GENERATE.map(() => `GenerateSecret over ${variant}`),
      );
    },
  );
}

// --- .NET (Mono): a proxy from `wsdl` ----------------------------------------------------------

const MONO_PROTOCOLS = [
  { protocol: 'SOAP', variant: 'soap11' },
  { protocol: 'SOAP12', variant: 'soap12' },
] as const;

test.serial(
  'Mono, a proxy class `wsdl` generated from the served WSDL (SOAP, SOAP12): GenerateSecret typed as .NET types it',
  async (t) => {
    if (!haveTool(t, 'mcs', ['--version'], 'mono-mcs mono-devel')) return;
    if (!haveTool(t, 'mono', ['--version'], 'mono-mcs mono-devel')) return;
    if (!haveTool(t, 'wsdl', ['-?'], 'mono-devel')) return;
    const answer = await fetch(`${added!.url}/api.asmx?WSDL`, { signal: AbortSignal.timeout(15_000) });
    t.is(answer.status, 200);
    const wsdlFile = join(work!, 'api.wsdl');
    writeFileSync(wsdlFile, await answer.text());
    for (const { protocol, variant } of MONO_PROTOCOLS) {
      const proxy = join(work!, `Proxy${protocol}.cs`);
      const generated = await bounded('wsdl', [`-protocol:${protocol}`, `-out:${proxy}`, wsdlFile]);
      t.is(generated.code, 0, `wsdl -protocol:${protocol}: ${generated.out}${generated.err}`);
      const exe = join(work!, `GenerateSecret${protocol}.exe`);
      const built = await bounded('mcs', [
        `-out:${exe}`,
        '-r:System.dll',
        '-r:System.Xml.dll',
        '-r:System.Web.Services.dll',
        proxy,
        join(CLIENTS_DIR, 'GenerateSecretProxyClient.cs'),
      ]);
      t.is(built.code, 0, `mcs: ${built.out}${built.err}`);
      const from = requestCount();
      const answered = await bounded(
        'mono',
        [exe, ...GENERATE.map(({ length, alphabet }) => (alphabet ? `${length}:${alphabet}` : `${length}`))],
        60_000,
      );
      t.is(answered.code, 0, answered.err);
      t.log(`Mono ${protocol} proxy: ${answered.out.trim().split('\n').length} answers`);
      const lines = answered.out.trim().split('\n');
      t.is(lines.length, GENERATE.length, answered.out);
      GENERATE.forEach(({ length, alphabet, warnings }, i) => {
        const what = `${protocol}: GenerateSecret(${length}${alphabet ? `, ${alphabet}` : ''})`;
        const [status, secretType, secret, createdType, createdKind, createdUtc, warningsType, warningList] = (lines[i] ?? '').split('\t');
        t.is(status, 'ok', `${what}: ${lines[i]}`);
        t.is(secretType, 'System.String', what);
        checkSecret(t, secret, length, alphabet, what);
        t.is(createdType, 'System.DateTime', `${what}: CreatedUtc parsed as a DateTime`);
        t.is(createdKind, 'Utc', `${what}: CreatedUtc's Kind`);
        checkNow(t, createdUtc ?? '', what);
        t.is(warningsType, 'System.String[]', `${what}: Warnings is a string[]`);
        t.deepEqual(warningList === '' ? [] : warningList?.split('|'), warnings, `${what}: the warnings`);
      });
      await checkSeen(
        t,
        from,
        GENERATE.map(() => `GenerateSecret over ${variant}`),
      );
    }
  },
);
