/**
 * docs/moving-from-the-original.md, "Python zeep": the page's snippet, run by
 * Debian's Python with python3-zeep, with a saved WSDL whose addresses are
 * not this service's. `create_service` with this service's address answers a
 * Pair and a ValidatePin (a wrong PIN, then the current one), over the
 * snippet's SOAP 1.1 binding and over the three others the page names.
 */
import test from 'ava';
import { join } from 'node:path';
import { encodeBase32 } from '../../src/service/otp/base32';
import { atAddress, snippet } from '../support/migration-page';
import { pinFor, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { PYTHON, requireTool } from './clients/harness';
import { callsSeen, run, savedWsdl, variantsSeen, workFolder } from './clients/moving-harness';

const BINDINGS = [
  ['AuthenticatorAPISoap', 'soap11'],
  ['AuthenticatorAPISoap12', 'soap12'],
  ['AuthenticatorAPIHttpGet', 'httpGet'],
  ['AuthenticatorAPIHttpPost', 'httpPost'],
] as const;

let service: TestService;

test.before(async () => {
  requireTool(PYTHON, ['-c', 'import zeep'], 'python3-zeep');
  service = await startTestService();
});

test.after.always(async () => {
  await service?.close();
});

/** The snippet as a program: the application's secret and PIN from its arguments, what it got as JSON. */
function program(code: string): string {
  return `import json
import sys

import zeep

secret_code, pin = sys.argv[1], sys.argv[2]
${code}
print(json.dumps({'ManualSetupCode': pairing.ManualSetupCode, 'valid': valid}))
`;
}

test.serial(
  'zeep with the page’s create_service: a saved WSDL’s calls answer a Pair and a ValidatePin here, on each binding',
  async (t) => {
    const { code, language } = snippet('Python zeep');
    t.is(language, 'python');
    const snippetBinding = "'{http://authenticatorapi.com/}AuthenticatorAPISoap'";
    t.true(code.includes(snippetBinding), 'the snippet binds the SOAP 1.1 port');
    const moved = atAddress(code, service.url);
    const wsdl = savedWsdl(await (await fetch(`${service.url}/api.asmx?WSDL`)).text(), service.url);
    const files: Record<string, string> = { 'AuthenticatorAPI.wsdl': wsdl };
    for (const [binding] of BINDINGS) {
      files[`${binding}.py`] = program(moved.replace(snippetBinding, `'{http://authenticatorapi.com/}${binding}'`));
    }
    const dir = workFolder(t, files);

    for (const [binding, variant] of BINDINGS) {
      const secret = `moving-zeep-${variant}-${Math.random().toString(36).slice(2)}`;
      const before = callsSeen(service);
      const answers = [];
      for (const pin of [wrongPinFor(service, secret), pinFor(service, secret)]) {
        const answered = await run(PYTHON, [join(dir, `${binding}.py`), secret, pin], dir);
        t.is(answered.code, 0, `${binding}: ${answered.err}`);
        answers.push(JSON.parse(answered.out));
      }
      const setupCode = encodeBase32(Buffer.from(secret, 'utf8'));
      t.deepEqual(
        answers,
        [
          { ManualSetupCode: setupCode, valid: false },
          { ManualSetupCode: setupCode, valid: true },
        ],
        binding,
      );
      t.deepEqual(
        variantsSeen(service, before),
        ['Pair', 'ValidatePin', 'Pair', 'ValidatePin'].map((op) => `${op} over ${variant}`),
        binding,
      );
    }
  },
);
