/**
 * The published contracts of test/fixtures/corpus/, as `npm run corpus`
 * checks them: each generates, all type-check in one TypeScript program,
 * each is served with sample answers (the mock) and every operation is
 * called over every SOAP port with its schema-valid sample request, the
 * answer a SOAP envelope whose body and headers are valid against the
 * contract's schemas. The one refused is refused with one line naming the
 * construct outside WS-I Basic Profile.
 */
import test from 'ava';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { checkCorpus, contractsOf, typeCheckFolders } from '../../../codegen/harness/corpus';
import { loadContract, sampleHandlers } from '../../../codegen/harness/load-generated';
import { generate } from '../../../codegen/main';
import { createContractApp } from '../../../src/runtime/host';
import { loadXmlEngine } from '../../../src/runtime/xml/xml-engine';

const CORPUS = join(__dirname, '..', '..', 'fixtures', 'corpus');

test.before(async () => {
  await loadXmlEngine();
});

test.serial('every published contract of the fixtures generates, type-checks and answers every operation on every SOAP port', async (t) => {
  t.timeout(900_000, 'generate a score of large contracts, type-check them together and call them');
  const lines: string[] = [];
  const outcomes = await checkCorpus(CORPUS, (line) => lines.push(line));
  t.log(lines.join('\n'));
  t.deepEqual(
    outcomes.map((o) => o.name),
    contractsOf(CORPUS).map((c) => c.name),
    'one line per contract',
  );
  for (const outcome of outcomes.filter((o) => o.name !== 'servicestack-portaplusapi')) {
    t.is(outcome.outcome, 'pass', `${outcome.name}: ${outcome.line}`);
    t.regex(outcome.line, /^\d+ operations × [1-9]\d* SOAP ports?, [1-9]\d* calls/, outcome.name);
  }
  const refused = outcomes.find((o) => o.name === 'servicestack-portaplusapi')!;
  t.is(refused.outcome, 'refused');
  t.regex(
    refused.line,
    /^codegen: .*servicestack-portaplusapi\.wsdl:\d+: binding WSHttpBinding_ISyncReply is a SOAP 1\.2 binding whose operations use <soap:operation> of SOAP 1\.1: outside WS-I Basic Profile/,
  );
  t.regex(
    lines.at(-1)!,
    /^20 of 21 contracts generate, type-check and answer every operation on every SOAP port with a schema-valid answer, every operation of every port of every service served$/,
  );
});

test('a folder of contracts is a WSDL a file, or a folder whose WSDL no other there imports', (t) => {
  const found = contractsOf(CORPUS);
  t.true(found.some((c) => c.name === 'euroconsumers-partner' && c.wsdl.endsWith('PartnerService.local.wsdl')));
  t.true(found.some((c) => c.name === 'lnp-NumberManagement' && c.wsdl.endsWith('NumberManagement.wsdl')));
  t.true(found.some((c) => c.name === 'gus-bir' && c.wsdl.endsWith('UslugaBIRzewnPubl.wsdl')));
  t.true(found.some((c) => c.name === 'heartland-posgateway' && c.wsdl.endsWith('pos_gateway.wsdl')));
  t.is(found.length, 21);
});

test('a WSDL that imports another is served with it: the import names `?wsdl=wsdl0`, which answers the imported WSDL', async (t) => {
  t.timeout(120_000, 'generate and load gus-bir');
  await loadXmlEngine();
  const folder = mkdtempSync(join(tmpdir(), 'corpus-import-'));
  const { definition } = await loadContract(join(CORPUS, 'gus-bir', 'UslugaBIRzewnPubl.wsdl'), { folder });
  const app = createContractApp(
    definition,
    sampleHandlers(definition),
    { namespace: undefined, publicUrl: undefined, trustProxy: false, maxBodyBytes: 1 << 20 },
    pino({ level: 'silent' }),
  );
  const handle = app.callback();
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${definition.endpointPath}`;
    const main = await (await fetch(`${base}?WSDL`)).text();
    const location = /<wsdl:import\b[^>]*\blocation="([^"]+)"/.exec(main)?.[1];
    t.is(location, `${base}?wsdl=wsdl0`);
    const imported = await fetch(location!);
    t.is(imported.status, 200);
    t.is(imported.headers.get('content-type'), 'text/xml; charset=utf-8');
    const text = await imported.text();
    t.regex(text, /<wsdl:definitions\b/);
    t.regex(text, /<wsdl:portType name="IUslugaBIRzewnPubl"/);
    t.is((await fetch(`${base}?wsdl=wsdl1`)).status, 404, 'no second imported WSDL');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the type check names the folder a compiler error is in, and fails it', async (t) => {
  t.timeout(180_000, 'generate two contracts and type-check them');
  const work = mkdtempSync(join(tmpdir(), 'corpus-check-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  const [good, bad] = [join(work, 'good'), join(work, 'bad')];
  const wsdl = join(CORPUS, 'afip-padron-a5', 'afip-padron-a5.wsdl');
  for (const folder of [good, bad]) await generate(wsdl, folder, { runtime: 'path' });
  appendFileSync(join(bad, 'client.ts'), "\nexport const notANumber: number = 'text';\n");
  const checked = typeCheckFolders([good, bad], work);
  t.is(checked.get(good), '');
  t.regex(checked.get(bad) ?? '', /^bad\/client\.ts\(\d+,\d+\): error TS2322/);
});
