/**
 * docs/moving-from-the-original.md, "PHP SoapClient": the page's snippet,
 * run by Debian's PHP (php-cli, php-soap) as an application runs it, with a
 * saved WSDL whose addresses are not this service's. With the snippet's
 * `location` (this service's address) it answers a Pair and a ValidatePin
 * (a wrong PIN, then the current one) over SOAP 1.1; without that line the
 * same program cannot reach anything.
 */
import test from 'ava';
import { join } from 'node:path';
import { encodeBase32 } from '../../src/service/otp/base32';
import { atAddress, snippet } from '../support/migration-page';
import { pinFor, wrongPinFor } from '../support/requests';
import { startTestService, type TestService } from '../support/service';
import { requireTool } from './clients/harness';
import { callsSeen, run, savedWsdl, variantsSeen, workFolder } from './clients/moving-harness';

let service: TestService;

test.before(async () => {
  requireTool('php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'], 'php-cli php-soap');
  service = await startTestService();
});

test.after.always(async () => {
  await service?.close();
});

/** The snippet as a program: the application's secret and PIN from its arguments, what it got as JSON. */
function program(code: string): string {
  return `<?php
$secretCode = $argv[1];
$pin = $argv[2];
try {
${code}
    echo json_encode(['ManualSetupCode' => $pairing->ManualSetupCode, 'valid' => $valid]);
} catch (Throwable $error) {
    echo json_encode(['error' => get_class($error) . ': ' . $error->getMessage()]);
}
`;
}

test.serial('PHP SoapClient with the page’s `location`: a saved WSDL’s calls answer a Pair and a ValidatePin here', async (t) => {
  const { code, language } = snippet('PHP SoapClient');
  t.is(language, 'php');
  const wsdl = savedWsdl(await (await fetch(`${service.url}/api.asmx?WSDL`)).text(), service.url);
  const dir = workFolder(t, {
    'AuthenticatorAPI.wsdl': wsdl,
    'moved.php': program(atAddress(code, service.url)),
    // The same program without the one change: the WSDL's own address.
    'unmoved.php': program(
      code
        .split('\n')
        .filter((line) => !line.includes("'location'"))
        .join('\n'),
    ),
  });
  const php = (script: string, secret: string, pin: string) =>
    // No WSDL cache: each test's saved copy is read as it is.
    run('php', ['-d', 'soap.wsdl_cache_enabled=0', join(dir, script), secret, pin], dir);

  const secret = `moving-php-${Math.random().toString(36).slice(2)}`;
  const before = callsSeen(service);
  const answers = [];
  for (const pin of [wrongPinFor(service, secret), pinFor(service, secret)]) {
    const answered = await php('moved.php', secret, pin);
    t.is(answered.code, 0, answered.err);
    answers.push(JSON.parse(answered.out));
  }
  const setupCode = encodeBase32(Buffer.from(secret, 'utf8'));
  t.deepEqual(answers, [
    { ManualSetupCode: setupCode, valid: false },
    { ManualSetupCode: setupCode, valid: true },
  ]);
  t.deepEqual(
    variantsSeen(service, before),
    ['Pair', 'ValidatePin', 'Pair', 'ValidatePin'].map((op) => `${op} over soap11`),
  );

  const unmoved = await php('unmoved.php', secret, pinFor(service, secret));
  t.regex(JSON.parse(unmoved.out).error ?? '', /^SoapFault: .*(connect|Could not)/i, 'without location the calls go to the WSDL’s address');
  t.is(callsSeen(service), before + 4, 'and never here');
});
