/**
 * Run as a child process by soap-binding-gc.test.ts: drives the SOAP binding
 * directly, tens of thousands of times back to back (its libxml2 work, up to
 * the handler call, is synchronous), so that the binding's code is optimized
 * and garbage collections fall inside that work (parse, validation document,
 * decoding). Prints `done <calls>`; a use-after-free of a libxml2 node ends
 * the process with SIGSEGV instead.
 */
import type { Context } from 'koa';
import { soapBinding } from '../../src/bindings/soap';
import { loadContract } from '../../src/contract';
import type { Handlers } from '../../generated/routes';
import { PairingInfo } from '../../generated/types';
import { loadXmlEngine } from '../../src/runtime/xml-engine';
import { NS, operationElement, soapEnvelope } from './requests';

const handlers: Handlers = {
  ValidatePin: async () => false,
  Pair: async () => new PairingInfo({ ManualSetupCode: 'MFRGG', Html: 'x' }),
};

function envelope(i: number): Buffer {
  const secretCode = `secret-${i}-abcdefghij`;
  const operation =
    i % 3 === 0
      ? operationElement('Pair', { appName: 'A', appInfo: `a${i}@example.com`, secretCode }, NS)
      : operationElement('ValidatePin', { pin: '123456', secretCode }, NS);
  return Buffer.from(soapEnvelope('1.1', operation));
}

async function main(): Promise<void> {
  await loadXmlEngine();
  const soap = soapBinding(loadContract(NS), handlers);
  const calls = Number(process.argv[2] ?? 50000);
  const bodies = Array.from({ length: 300 }, (_, i) => envelope(i)); // 300: a multiple of 3, so call i has the operation of envelope i % 300
  const started: { ctx: { body?: unknown }; done: Promise<void> }[] = [];
  for (let i = 0; i < calls; i++) {
    const ctx: { request: object; state: object; body?: unknown; get(): string; set(): void } = {
      request: { type: 'text/xml', charset: 'utf-8', body: bodies[i % bodies.length] },
      state: {},
      get: () => '',
      set: () => {},
    };
    // Not awaited one by one: the next call's libxml2 work runs right after this one's, as in a busy server.
    started.push({ ctx, done: soap(ctx as unknown as Context) });
  }
  for (const [i, { ctx, done }] of started.entries()) {
    await done;
    if (!String(ctx.body).includes(i % 3 === 0 ? '<ManualSetupCode>MFRGG</ManualSetupCode>' : '<ValidatePinResult>false</ValidatePinResult>')) {
      throw new Error(`call ${i}: unexpected answer`);
    }
  }
  process.stdout.write(`done ${calls}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
