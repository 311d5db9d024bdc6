/**
 * The mock of a contract whose WS-Policy asks for WS-Addressing and a
 * UsernameToken (test/fixtures/contracts/wcf-wshttp/): it starts, says on
 * stderr that it takes any username and password, answers a call that
 * carries the headers the policy asks for with its sample, and refuses one
 * without the token as the runtime does (wsse:FailedAuthentication). The
 * mock runs as its command does, in a child process.
 */
import test from 'ava';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { elementAt, loadReaders, readXml, textOf } from '../../support/readers';
import { send, soapEnvelope } from '../../support/requests';

const ROOT = join(__dirname, '..', '..', '..');
const GREETER = join(ROOT, 'test', 'fixtures', 'contracts', 'wcf-wshttp', 'Greeter.wsdl');
const WSA = 'http://www.w3.org/2005/08/addressing';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';

let child: ChildProcess | undefined;
test.after.always(() => {
  child?.kill('SIGTERM');
});

/** Starts the mock; resolves with its endpoint and what it wrote on stderr before listening. */
async function startMock(): Promise<{ endpoint: string; stderr: string }> {
  child = spawn(process.execPath, ['--import=tsx', join(ROOT, 'codegen', 'harness', 'mock.ts'), '--wsdl', GREETER, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const listening = new Promise<string>((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child!.once('exit', (code) => reject(new Error(`the mock stopped (${code}) before it listened: ${stderr}`)));
  });
  const limit = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('the mock did not listen within 5 minutes')), 300_000).unref(),
  );
  const endpoint = await Promise.race([listening, limit]);
  return { endpoint, stderr };
}

function greet(endpoint: string, security: string): Promise<Awaited<ReturnType<typeof send>>> {
  const header =
    `<soap:Header><wsa:Action xmlns:wsa="${WSA}" soap:mustUnderstand="true">http://tempuri.org/IGreeter/Greet</wsa:Action>` +
    `<wsa:MessageID xmlns:wsa="${WSA}">urn:uuid:6a0e1f0e-4b8e-4a57-9a8b-0f6f2c3b9d10</wsa:MessageID>` +
    `<wsa:To xmlns:wsa="${WSA}">${endpoint}</wsa:To>${security}</soap:Header>`;
  return send(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/soap+xml; charset=utf-8; action="http://tempuri.org/IGreeter/Greet"' },
    body: soapEnvelope('1.2', '<Greet xmlns="http://tempuri.org/"><name>Ada</name></Greet>', { header }),
  });
}

test('the mock of a contract whose policy asks for a UsernameToken takes any password and refuses a call without the token', async (t) => {
  await loadReaders();
  const { endpoint, stderr } = await startMock();
  t.regex(stderr, /WS-Security tokens: any username and password is taken/);

  const token =
    `<wsse:Security xmlns:wsse="${WSSE}" soap:mustUnderstand="true"><wsse:UsernameToken><wsse:Username>anyone</wsse:Username>` +
    `<wsse:Password Type="${PASSWORD_TEXT}">whatever</wsse:Password></wsse:UsernameToken></wsse:Security>`;
  const answered = await greet(endpoint, token);
  t.is(answered.status, 200, answered.body);
  const ns = { s: 'http://www.w3.org/2003/05/soap-envelope', t: 'http://tempuri.org/', wsa: WSA };
  readXml(answered.body, (doc) => {
    t.truthy(elementAt(doc, '/s:Envelope/s:Body/t:GreetResponse', ns), 'the sample answer');
    const relatesTo = elementAt(doc, '/s:Envelope/s:Header/wsa:RelatesTo', ns);
    t.is(relatesTo && textOf(relatesTo), 'urn:uuid:6a0e1f0e-4b8e-4a57-9a8b-0f6f2c3b9d10', 'addressed as the policy asks');
  });

  const refused = await greet(endpoint, '');
  t.is(refused.status, 500);
  readXml(refused.body, (doc) => {
    const subcode = elementAt(doc, '/s:Envelope/s:Body/s:Fault/s:Code/s:Subcode/s:Value', ns);
    t.is(subcode && textOf(subcode).split(':').pop(), 'FailedAuthentication');
  });
});
