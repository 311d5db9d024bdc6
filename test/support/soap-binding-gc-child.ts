/**
 * Run as a child process by soap-binding-gc.test.ts: drives the SOAP binding
 * directly, tens of thousands of times back to back (its libxml2 work, up to
 * the handler call, is synchronous), so that the binding's code is optimized
 * and garbage collections fall inside that work (parse, validation document,
 * decoding), over SOAP 1.1 and 1.2. Prints `done <calls>`; a use-after-free
 * of a libxml2 node ends the process with SIGSEGV instead, and a bad free
 * makes libxml2 write a report on stderr.
 */
import type { Context } from 'koa';
import { rmSync } from 'node:fs';
import { type AnyOperations, loadContract as generateContract } from '../../codegen/harness/load-generated';
import { soapBinding } from '../../src/runtime/bindings/soap';
import { loadContract } from '../../src/runtime/contract';
import type { Handlers } from '../../src/runtime/definition';
import { SOAP11, SOAP12, soapEnvelope } from '../../src/runtime/wire/soap-envelope';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { FIXTURE_CONTRACTS } from './fixture-contract';

/** The calculator fixture contract: Average (two doubles) for every third call, Add (two ints) otherwise. */
const NS = 'http://calculator.example.org/';
const handlers = {
  Add: async (request: { intA: number; intB: number }) => request.intA + request.intB,
  Average: async (request: { a: number; b: number }) => (request.a + request.b) / 2,
} as unknown as Handlers<AnyOperations>;

/** Envelope i: Average for every third, Add otherwise; SOAP 1.1 and 1.2 in turn. */
function envelope(i: number): Buffer {
  const operation =
    i % 3 === 0
      ? `<Average xmlns="${NS}"><a>${i}</a><b>${i + 2}</b></Average>`
      : `<Add xmlns="${NS}"><intA>${i}</intA><intB>1</intB></Add>`;
  return Buffer.from(soapEnvelope(i % 2 === 0 ? SOAP11 : SOAP12, operation));
}

const CONTENT_TYPES = ['text/xml', 'application/soap+xml'];

async function main(): Promise<void> {
  await loadXmlEngine();
  const generated = await generateContract(`${FIXTURE_CONTRACTS}/calculator/Calculator.wsdl`);
  process.on('exit', () => rmSync(generated.folder, { recursive: true, force: true }));
  const soap = soapBinding(loadContract(generated.definition, NS), handlers);
  const calls = Number(process.argv[2] ?? 50000);
  const bodies = Array.from({ length: 300 }, (_, i) => envelope(i)); // 300: a multiple of 6, so call i is envelope i % 300's operation and version
  const started: { ctx: { body?: unknown }; done: Promise<void> }[] = [];
  for (let i = 0; i < calls; i++) {
    const type = CONTENT_TYPES[i % 2];
    const ctx: { ip: string; request: object; state: object; body?: unknown; get(name: string): string; set(): void } = {
      ip: '127.0.0.1',
      request: { type, charset: 'utf-8', body: bodies[i % bodies.length] },
      state: {},
      get: (name) => (name === 'Content-Type' ? `${type}; charset=utf-8` : ''),
      set: () => {},
    };
    // Not awaited one by one: the next call's libxml2 work runs right after this one's, as in a busy server.
    started.push({ ctx, done: soap(ctx as unknown as Context) });
  }
  for (const [i, { ctx, done }] of started.entries()) {
    await done;
    const expected = (i % 300) % 3 === 0 ? `<AverageResult>${(i % 300) + 1}</AverageResult>` : `<AddResult>${(i % 300) + 1}</AddResult>`;
    if (!String(ctx.body).includes(expected)) {
      throw new Error(`call ${i}: unexpected answer`);
    }
  }
  process.stdout.write(`done ${calls}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
