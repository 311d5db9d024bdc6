/**
 * Every sample is valid against the contract's schemas: for each fixture
 * contract that generates (test/fixtures/contracts, corpus, outside,
 * public-wsdls, published and samples), each operation's sample request, sample result
 * (the SOAP answer's body and, where the contract has an HTTP port, the HTTP
 * answer) and sample headers in and out, as the mock answers them, the help
 * pages show them and `npm run corpus` sends them, are checked with libxml2
 * against the schemas the contract serves. test/fixtures/samples/ holds the
 * facets and constructs a sample has to keep to, each in an operation.
 */
import test from 'ava';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { checkEnvelope, contractNames, contractsOf, typeCheckFolders } from '../../../../codegen/harness/corpus';
import { type AnyOperations, loadContract } from '../../../../codegen/harness/load-generated';
import { generate } from '../../../../codegen/main';
import type { ContractDefinition } from '../../../../src/runtime/definition';
import { SOAP11, SOAP12, soapEnvelope } from '../../../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../../../src/runtime/xml/xml-escape';
import { loadXmlEngine, safeParseOptions, xml, type XsdValidator } from '../../../../src/runtime/xml/xml-engine';
import { compileSchemaSet, firstLibxmlMessage } from '../../../../src/runtime/xml/xml-schema';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures');
const FOLDERS = ['contracts', 'corpus', 'outside', 'public-wsdls', 'published', 'samples'];

/** The fixture contracts codegen refuses, with the line it refuses each with: they have no samples. */
const REFUSED: Record<string, RegExp> = {
  'corpus/servicestack-portaplusapi': /is a SOAP 1\.2 binding whose operations use <soap:operation> of SOAP 1\.1/,
  'public-wsdls/threeplcentral-contracts': /not well-formed|XML declaration/i,
};

test.before(async () => {
  await loadXmlEngine();
});

/** What is wrong with each sample of a contract, one line each ([] when every sample is valid). */
function sampleProblems(definition: ContractDefinition<AnyOperations>): string[] {
  const schemas: XsdValidator = compileSchemaSet(
    definition.renderSchemas?.(definition.targetNamespace) ?? [definition.renderSchema(definition.targetNamespace)],
  );
  const ns = escapeXmlAttribute(definition.targetNamespace);
  const soapPort = definition.ports.find((p) => p.variant === 'soap11' || p.variant === 'soap12');
  const version = soapPort?.variant === 'soap12' ? SOAP12 : SOAP11;
  const http = definition.ports.some((p) => p.variant === 'httpGet' || p.variant === 'httpPost');
  const problems: string[] = [];
  for (const name of definition.operationNames) {
    const route = definition.routes[name];
    const headers = route.sampleHeaders?.();
    const result = route.sampleResult();
    if (soapPort) {
      const inHeaders = headers && route.encodeSoapRequestHeaders ? route.encodeSoapRequestHeaders(headers.in, ns) : '';
      const request = checkEnvelope(
        soapEnvelope(version, route.encodeSoapRequest(route.sampleRequest(), ns), inHeaders || undefined),
        version,
        schemas,
      );
      if (request) problems.push(`${name}: the sample request: ${request}`);
      if (!route.oneWay) {
        const outHeaders = headers && route.encodeSoapHeaders ? route.encodeSoapHeaders(headers.out, ns) : '';
        const answer = checkEnvelope(soapEnvelope(version, route.encodeSoapBody(result, ns), outHeaders || undefined), version, schemas);
        if (answer) problems.push(`${name}: the sample answer: ${answer}`);
      }
    }
    const httpAnswer = http ? route.encodeHttp(result, ns) : '';
    if (httpAnswer !== '') {
      const problem = checkDocument(httpAnswer, schemas);
      if (problem) problems.push(`${name}: the sample HTTP answer: ${problem}`);
    }
  }
  return problems;
}

/** What the schemas refuse in a whole document (an HTTP answer), undefined when it is valid. */
function checkDocument(text: string, schemas: XsdValidator): string | undefined {
  const doc = xml().XmlDocument.fromString(text, { option: safeParseOptions() });
  try {
    schemas.validate(doc);
    return undefined;
  } catch (error) {
    return `${doc.root.name}: ${firstLibxmlMessage(error).slice(0, 300)}`;
  } finally {
    doc.dispose();
  }
}

// Named now, found in the tests (contractsOf reads the WSDLs with the XML engine, loaded before them).
const contracts = FOLDERS.flatMap((folder) =>
  contractNames(join(FIXTURES, folder)).map((name) => ({ folder, name, id: `${folder}/${name}` })),
);
const contractOf = (folder: string, name: string) => contractsOf(join(FIXTURES, folder)).find((c) => c.name === name)!;

test.serial('the samples of test/fixtures/samples type-check as generated (the lines of routes.ts that write them)', async (t) => {
  t.timeout(300_000, 'generate and type-check');
  const work = mkdtempSync(join(tmpdir(), 'samples-typecheck-'));
  try {
    const folders: string[] = [];
    for (const { name, wsdl } of contractsOf(join(FIXTURES, 'samples'))) {
      const folder = join(work, name);
      mkdirSync(folder);
      await generate(wsdl, folder, { runtime: 'path' });
      folders.push(folder);
    }
    t.is(folders.length, 2);
    for (const [folder, errors] of typeCheckFolders(folders, work)) {
      // The lines of routes.ts that write samples; other code is not this test's: its messages are shown, not checked.
      const routes = readFileSync(join(folder, 'routes.ts'), 'utf8').split('\n');
      const inSample = (line: string) => {
        const at = /\/routes\.ts\((\d+),/.exec(line);
        return at !== null && /^\s*sample(Request|Result|Headers):/.test(routes[Number(at[1]) - 1]);
      };
      t.true(
        routes.some((line) => /^\s*sampleRequest:/.test(line)),
        folder,
      );
      if (errors) t.log(errors);
      t.deepEqual(errors.split('\n').filter(inSample), [], folder);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('every folder of fixture contracts holds contracts, and each one the test expects refused is one of them', (t) => {
  for (const folder of FOLDERS)
    t.true(
      contracts.some((c) => c.id.startsWith(`${folder}/`)),
      folder,
    );
  for (const id of Object.keys(REFUSED))
    t.true(
      contracts.some((c) => c.id === id),
      id,
    );
});

for (const { id, folder, name } of contracts) {
  const refused = REFUSED[id];
  if (refused) {
    test.serial(`${id} is refused, so it has no samples`, async (t) => {
      await t.throwsAsync(loadContract(contractOf(folder, name).wsdl), { message: refused });
    });
    continue;
  }
  test.serial(`${id}: every sample request, answer and header is valid against the contract's schemas`, async (t) => {
    t.timeout(300_000, 'generate and load a large contract');
    const { wsdl, catalog } = contractOf(folder, name);
    const { definition, remove } = await loadContract(wsdl, catalog ? { catalog } : {});
    try {
      t.true(definition.operationNames.length > 0);
      t.deepEqual(sampleProblems(definition), []);
    } finally {
      remove();
    }
  });
}
