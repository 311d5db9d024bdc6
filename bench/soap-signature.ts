/**
 * What WS-Security's X.509 signatures cost per call (src/runtime/soap-stack/signature.ts), `make bench-soap-signature`.
 *
 * The calculator fixture's Add route served in this process three ways, on loopback with a keep-alive agent:
 * `plain` (no policy, unsigned calls), `verify` (the request's signature checked: xml-crypto parses the envelope
 * again, canonicalizes the Body and checks its RSA-SHA256 signature) and `verify + sign` (also the answer signed:
 * xml-crypto parses the answer envelope, canonicalizes Body and Timestamp, signs with RSA-2048 and writes it out,
 * with a Timestamp). The same prebuilt request is sent again and again in a measurement (a signature carries no
 * nonce; its Timestamp, made anew before each measurement, stays valid), SIGNATURE_BENCH_CONCURRENCY at a time.
 * The figure is this process's CPU time (user + system, the
 * client's share included: it is the same work in each) over SIGNATURE_BENCH_CALLS calls, after as many warm-up
 * calls, in SIGNATURE_BENCH_ROUNDS rounds that take the three in a rotating order; the median round is given with
 * the lowest and highest, and the added cost as the difference of medians. Then the signing step alone (the
 * runtime's sign(), no HTTP), timed over the same answer envelope, and its RSA signature alone.
 *
 * Writes the figures into bench/RESULTS.md's "SOAP signatures" section (SIGNATURE_BENCH_RESULTS: the file written,
 * bench/RESULTS.md; `-` for none), and prints them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import type { AnyOperations } from '../codegen/harness/load-generated';
import type { ContractDefinition, SoapPolicy } from '../src/runtime/definition';
import { signatureStep } from '../src/runtime/soap-stack/signature';
import type { Exchange } from '../src/runtime/soap-stack/step';
import { SOAP11 } from '../src/runtime/wire/soap-envelope';
import { X509Certificate, createPrivateKey, sign } from 'node:crypto';
import { type FixtureContract, type ServedFixture, generateFixture, serveFixture } from '../test/support/fixture-contract';
import { loadReaders } from '../test/support/readers';
import { replaceSection } from './report/results';
import { CALCULATOR_NS, type Signer, rsaCertificate, signedRequest, timestampNow, unsignedAdd } from '../test/support/wss-signing';

const CALLS = Number(process.env.SIGNATURE_BENCH_CALLS ?? 500);
const ROUNDS = Number(process.env.SIGNATURE_BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.SIGNATURE_BENCH_CONCURRENCY ?? 8);
const RESULTS = process.env.SIGNATURE_BENCH_RESULTS ?? join(__dirname, 'RESULTS.md');
const cpuMicros = () => (({ user, system }) => user + system)(process.cpuUsage());

interface Setup {
  name: string;
  server: ServedFixture;
  /** The request, made before each measurement (a signed one's Timestamp new). */
  body: () => string;
}

function withPolicy(fixture: FixtureContract, policy: SoapPolicy | undefined): ContractDefinition<AnyOperations> {
  if (!policy) return fixture.definition;
  const route = fixture.definition.routes.Add;
  return { ...fixture.definition, routes: { ...fixture.definition.routes, Add: { ...route, policies: { soap11: policy } } } };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: URL, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'text/xml; charset=utf-8',
          SOAPAction: `"${CALCULATOR_NS}Add"`,
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (answer.statusCode !== 200 || !text.includes('>5</')) reject(new Error(`HTTP ${answer.statusCode}: ${text.slice(0, 500)}`));
          else resolve();
        });
      },
    );
    call.on('error', reject);
    call.end(body);
  });
}

/** `calls` calls, `CONCURRENCY` at a time; this process's CPU µs per call. */
async function measure(setup: Setup, calls: number): Promise<number> {
  const url = new URL(setup.server.endpoint);
  const body = setup.body();
  let next = 0;
  const start = cpuMicros();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls) {
        next++;
        await post(url, body);
      }
    }),
  );
  return (cpuMicros() - start) / calls;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number) => Math.round(n);

async function main(): Promise<void> {
  await loadReaders();
  const fixture = await generateFixture('calculator');
  const ca = await rsaCertificate({ serialNumber: '01', name: 'CN=bench CA', ca: true });
  const caller: Signer = await rsaCertificate({ serialNumber: '02', name: 'CN=bench caller', issuer: ca });
  const service: Signer = await rsaCertificate({ serialNumber: '03', name: 'CN=bench service' });
  const options = {
    authenticate: () => ({ system: 'bench' }),
    soapSecurity: { trustedCertificates: [ca.pem], signingKey: service.key, signingCertificate: service.pem },
  };
  const handlers = { Add: async (r: { intA: number; intB: number }) => r.intA + r.intB };
  const serve = (policy?: SoapPolicy) => serveFixture(withPolicy(fixture, policy), handlers as never, {}, options);
  const plainBody = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11.envelopeNamespace}"><soap:Body><Add xmlns="${CALCULATOR_NS}"><intA>2</intA><intB>3</intB></Add></soap:Body></soap:Envelope>`;
  const signedBody = () => signedRequest(unsignedAdd('1.1', caller, '', timestampNow()), caller, "//*[local-name(.)='Body']");
  const setups: Setup[] = [
    { name: 'plain', server: await serve(), body: () => plainBody },
    {
      name: 'verify',
      server: await serve({ timestamp: true, signature: { body: true, headers: [], digest: 'sha256', signAnswer: false } }),
      body: signedBody,
    },
    {
      name: 'verify + sign',
      server: await serve({ timestamp: true, signature: { body: true, headers: [], digest: 'sha256', signAnswer: true } }),
      body: signedBody,
    },
  ];
  const load = loadavg();
  const results = new Map<string, number[]>(setups.map((s) => [s.name, []]));
  for (const setup of setups) await measure(setup, CALLS);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < setups.length; i++) {
      const setup = setups[(i + r) % setups.length];
      await measure(setup, CALLS); // warm-up of this round
      results.get(setup.name)!.push(await measure(setup, CALLS));
    }
  }
  for (const setup of setups) await setup.server.close();
  agent.destroy();

  // The signing step alone, over the answer envelope the service writes.
  const step = signatureStep(
    { body: true, headers: [], digest: 'sha256', signAnswer: true },
    { now: Date.now, trusted: [new X509Certificate(ca.pem)], authenticate: () => true },
    { key: createPrivateKey(service.key), certificate: new X509Certificate(service.pem), timestamp: true, answerTimestampMs: 300_000 },
  );
  const exchange = { version: SOAP11 } as Exchange;
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11.envelopeNamespace}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Header>${step.answer!(exchange, undefined)}</soap:Header><soap:Body><AddResponse xmlns="${CALCULATOR_NS}"><AddResult>5</AddResult></AddResponse></soap:Body></soap:Envelope>`;
  for (let i = 0; i < 500; i++) step.sign!(exchange, envelope);
  const signRounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = cpuMicros();
    for (let i = 0; i < 1000; i++) step.sign!(exchange, envelope);
    signRounds.push((cpuMicros() - start) / 1000);
  }
  // Its RSA-2048 signature alone (node:crypto), over a SignedInfo's length: the rest is xml-crypto's XML work.
  const key = createPrivateKey(service.key);
  const signedInfo = Buffer.alloc(700, 'a');
  for (let i = 0; i < 200; i++) sign('sha256', signedInfo, key);
  const rsaRounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = cpuMicros();
    for (let i = 0; i < 1000; i++) sign('sha256', signedInfo, key);
    rsaRounds.push((cpuMicros() - start) / 1000);
  }
  fixture.remove();

  const line = (name: string) => {
    const values = results.get(name)!;
    return `| ${name} | ${round(median(values))} (${round(Math.min(...values))}–${round(Math.max(...values))}) |`;
  };
  const plain = median(results.get('plain')!);
  const verify = median(results.get('verify')!);
  const both = median(results.get('verify + sign')!);
  const signed = step.sign!(exchange, envelope);
  const figures = [
    `- Date: ${new Date().toISOString()}; ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node.js ${process.version}; load average before ${load.map((l) => l.toFixed(2)).join(' / ')}`,
    `- ${ROUNDS} rounds of ${CALLS} calls each (after as many warm-up calls), ${CONCURRENCY} at a time, SOAP 1.1, RSA-2048 keys, RSA-SHA256 and SHA-256 digests, exclusive C14N; request ${Buffer.byteLength(signedBody())} bytes signed (${Buffer.byteLength(plainBody)} plain), signed answer ${Buffer.byteLength(signed)} bytes`,
    '',
    '| served | CPU µs per call, median round (lowest–highest) |',
    '|---|---:|',
    line('plain'),
    line('verify'),
    line('verify + sign'),
    '',
    `- Added by checking the request's signature (and its Timestamp): ${round(verify - plain)} µs per call; by signing the answer: ${round(both - verify)} µs; both: ${round(both - plain)} µs.`,
    `- The signing step alone (sign(), no HTTP): ${round(median(signRounds))} µs per answer (${round(Math.min(...signRounds))}–${round(Math.max(...signRounds))}), of which its RSA-2048 signature ${round(median(rsaRounds))} µs (node:crypto alone).`,
    '',
    `Measured by \`make bench-soap-signature\` (bench/soap-signature.ts): the calculator fixture's Add served in the bench's own process, called over loopback with a keep-alive agent, the process's CPU time (user + system, the client's share included: the same work in each setup) per call. \`plain\`: no policy, an unsigned call; \`verify\`: the request's RSA-SHA256 signature over its Body checked (with its Timestamp), which also takes the detailed read of an envelope with a Header; \`verify + sign\`: the answer signed too (Body and Timestamp). Rounds take the three in a rotating order; the added costs are differences of the medians.`,
  ].join('\n');
  console.log(figures);
  if (RESULTS !== '-') {
    writeFileSync(RESULTS, replaceSection(existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '', 'signatures', figures));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
