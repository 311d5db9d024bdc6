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
import { soapBinding } from '../../src/runtime/bindings/soap';
import { CONTRACT } from '../../generated/contract';
import { loadContract } from '../../src/runtime/contract';
import type { Handlers } from '../../generated/routes';
import { PairingInfo } from '../../generated/types';
import { loadXmlEngine } from '../../src/runtime/xml/xml-engine';
import { NS, operationElement, soapEnvelope } from './requests';

/** The two operations this child calls (an operation added to schema/ is never called here). */
const called: Pick<Handlers, 'Pair' | 'ValidatePin'> = {
  ValidatePin: async () => false,
  Pair: async () => new PairingInfo({ ManualSetupCode: 'MFRGG', Html: 'x' }),
};
const handlers = called as Handlers;

/** Envelope i: Pair for every third, ValidatePin otherwise; SOAP 1.1 and 1.2 in turn. */
function envelope(i: number): Buffer {
  const secretCode = `secret-${i}-abcdefghij`;
  const operation =
    i % 3 === 0
      ? operationElement('Pair', { appName: 'A', appInfo: `a${i}@example.com`, secretCode }, NS)
      : operationElement('ValidatePin', { pin: '123456', secretCode }, NS);
  return Buffer.from(soapEnvelope(i % 2 === 0 ? '1.1' : '1.2', operation));
}

const CONTENT_TYPES = ['text/xml', 'application/soap+xml'];

async function main(): Promise<void> {
  await loadXmlEngine();
  const soap = soapBinding(loadContract(CONTRACT, NS), handlers);
  const calls = Number(process.argv[2] ?? 50000);
  const bodies = Array.from({ length: 300 }, (_, i) => envelope(i)); // 300: a multiple of 6, so call i is envelope i % 300's operation and version
  const started: { ctx: { body?: unknown }; done: Promise<void> }[] = [];
  for (let i = 0; i < calls; i++) {
    const type = CONTENT_TYPES[i % 2];
    const ctx: { request: object; state: object; body?: unknown; get(name: string): string; set(): void } = {
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
    if (
      !String(ctx.body).includes(i % 3 === 0 ? '<ManualSetupCode>MFRGG</ManualSetupCode>' : '<ValidatePinResult>false</ValidatePinResult>')
    ) {
      throw new Error(`call ${i}: unexpected answer`);
    }
  }
  process.stdout.write(`done ${calls}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
