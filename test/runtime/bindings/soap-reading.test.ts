/**
 * The SOAP binding reads a call in one of two ways (src/runtime/bindings/soap.ts):
 * the usual envelope straight from libxml2's tree, anything else in detail
 * through libxml2-wasm's API. Whatever the first accepts, the second must
 * accept with the same operation and request, and the same refusal when the
 * action disagrees. Checked with the calculator and temperature fixture
 * contracts, on hand-written envelopes that must take the first way and on
 * thousands of mutated ones (test/support/envelope-mutations.ts).
 */
import test from 'ava';
import { isUtf8 } from 'node:buffer';
import type { AnyOperations } from '../../../codegen/harness/load-generated';
import { readCallInDetail, readUsualCall } from '../../../src/runtime/bindings/soap';
import { withUntrustedXml } from '../../../src/runtime/bindings/untrusted-xml';
import type { CallContext } from '../../../src/runtime/call-state';
import { type Contract, loadContract } from '../../../src/runtime/contract';
import { ServiceError } from '../../../src/runtime/errors';
import { SOAP11, SOAP12, type SoapVersion, soapEnvelope } from '../../../src/runtime/wire/soap-envelope';
import { type CallShape, Rng, mutatedEnvelope } from '../../support/envelope-mutations';
import { type FixtureContract, generateFixture } from '../../support/fixture-contract';

const fixtures: FixtureContract[] = [];
let calculator: Contract<AnyOperations>;
let temperature: Contract<AnyOperations>;

test.before(async () => {
  const [calc, temp] = await Promise.all([generateFixture('calculator'), generateFixture('temperature')]);
  fixtures.push(calc, temp);
  calculator = loadContract(calc.definition, calc.definition.targetNamespace);
  temperature = loadContract(temp.definition, temp.definition.targetNamespace);
});
test.after.always(() => {
  for (const fixture of fixtures) fixture.remove();
});

/** The little of a Koa context the readers use: request headers and the call's state. */
function callContext(headers: Record<string, string>): CallContext {
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { get: (name: string) => lower.get(name.toLowerCase()) ?? '', state: {} } as unknown as CallContext;
}

type Outcome = { read: unknown; operation?: string } | { refused: string };

function outcome(read: (ctx: CallContext) => unknown, headers: Record<string, string>): Outcome | undefined {
  const ctx = callContext(headers);
  try {
    const call = read(ctx);
    return call === undefined ? undefined : { read: call, operation: ctx.state.operation };
  } catch (error) {
    if (error instanceof ServiceError) return { refused: `${error.kind}: ${error.message}` };
    throw error;
  }
}

/** Both ways; `usual` is undefined when the first way passed the call on. */
function readBothWays(contract: Contract<AnyOperations>, bytes: Buffer, version: SoapVersion, headers: Record<string, string>) {
  const usual = outcome((ctx) => readUsualCall(ctx, bytes, version, contract), headers);
  const detail = outcome((ctx) => withUntrustedXml(bytes, (doc) => readCallInDetail(ctx, doc, version, contract)), headers);
  return { usual, detail };
}

const CALC = 'http://calculator.example.org/';
const TEMP = 'https://temperature.example.com/';
const element = (name: string, ns: string, fields: Record<string, string>) =>
  `<${name} xmlns="${ns}">${Object.entries(fields)
    .map(([f, v]) => `<${f}>${v}</${f}>`)
    .join('')}</${name}>`;

const USUAL: {
  title: string;
  contract: () => Contract<AnyOperations>;
  version: SoapVersion;
  body: string;
  headers?: Record<string, string>;
}[] = [
  {
    title: 'SOAP 1.1 Add as the clients send it',
    contract: () => calculator,
    version: SOAP11,
    body: soapEnvelope(SOAP11, element('Add', CALC, { intA: '2', intB: '40' })),
  },
  {
    title: 'SOAP 1.2 CelsiusToFahrenheit',
    contract: () => temperature,
    version: SOAP12,
    body: soapEnvelope(SOAP12, element('CelsiusToFahrenheit', TEMP, { Celsius: '20' })),
  },
  {
    title: 'an optional field left out, an empty field',
    contract: () => temperature,
    version: SOAP11,
    body: soapEnvelope(SOAP11, element('FahrenheitToCelsius', TEMP, {})),
  },
  {
    title: 'white space, comments, processing instructions, CDATA, an attribute on the Envelope and Body, other prefixes',
    contract: () => temperature,
    version: SOAP11,
    body:
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><e:Envelope xmlns:e="${SOAP11.envelopeNamespace}" e:encodingStyle="x">\n <?pi x?>` +
      `<e:Body id="b">\n  <p:CelsiusToFahrenheit xmlns:p="${TEMP}"><p:Celsius> 2<![CDATA[0]]>&#x20;<!-- c --></p:Celsius></p:CelsiusToFahrenheit>\n </e:Body></e:Envelope>`,
  },
  {
    title: 'a SOAPAction naming the operation, quoted',
    contract: () => calculator,
    version: SOAP11,
    body: soapEnvelope(SOAP11, element('Subtract', CALC, { intA: '2', intB: '40' })),
    headers: { SOAPAction: `"${CALC}Subtract"` },
  },
  {
    title: 'a SOAPAction naming another operation: refused the same way',
    contract: () => calculator,
    version: SOAP11,
    body: soapEnvelope(SOAP11, element('Subtract', CALC, { intA: '2', intB: '40' })),
    headers: { SOAPAction: `"${CALC}Add"` },
  },
  {
    title: 'SOAP 1.2 action naming another operation, unquoted: refused the same way',
    contract: () => calculator,
    version: SOAP12,
    body: soapEnvelope(SOAP12, element('Multiply', CALC, { intA: '2', intB: '40' })),
    headers: { 'Content-Type': `${SOAP12.contentType}; action=${CALC}Divide` },
  },
];

for (const c of USUAL) {
  test(`read from the tree, as in detail: ${c.title}`, (t) => {
    const { usual, detail } = readBothWays(c.contract(), Buffer.from(c.body, 'utf8'), c.version, {
      'Content-Type': c.version.contentType,
      ...c.headers,
    });
    t.not(usual, undefined, 'the usual envelope is read from the tree');
    t.deepEqual(usual, detail);
  });
}

const SHAPES: { contract: () => Contract<AnyOperations>; shape: CallShape }[] = [
  {
    contract: () => calculator,
    shape: {
      namespace: CALC,
      element: 'Add',
      fields: [
        ['intA', '2'],
        ['intB', '40'],
      ],
      otherElements: ['Subtract', 'Clear', 'AddResponse'],
    },
  },
  {
    contract: () => calculator,
    shape: {
      namespace: CALC,
      element: 'Average',
      fields: [
        ['a', '1.5'],
        ['b', '2.5'],
      ],
      otherElements: ['Divide', 'Clear'],
    },
  },
  {
    contract: () => temperature,
    shape: {
      namespace: TEMP,
      element: 'CelsiusToFahrenheit',
      fields: [['Celsius', '20']],
      otherElements: ['FahrenheitToCelsius', 'string'],
    },
  },
];

test('mutated envelopes: whatever is read from the tree is read alike in detail, and the rest is left to the detail', (t) => {
  let fromTree = 0;
  let inDetail = 0;
  const actions = new Rng(20261124);
  for (let index = 0; index < 4000; index++) {
    const { contract, shape } = SHAPES[index % SHAPES.length];
    const { version, body, mutations } = mutatedEnvelope(20261124, index, shape);
    if (!isUtf8(body)) continue;
    // The action names the operation, another one, or nothing.
    const action = actions.pick([shape.element, ...shape.otherElements, undefined]);
    const headers =
      version === SOAP11
        ? { 'Content-Type': SOAP11.contentType, ...(action ? { SOAPAction: `"${shape.namespace}${action}"` } : {}) }
        : { 'Content-Type': action ? `${SOAP12.contentType}; action="${shape.namespace}${action}"` : SOAP12.contentType };
    const { usual, detail } = readBothWays(contract(), body, version, headers);
    if (usual === undefined) {
      inDetail++;
      continue;
    }
    fromTree++;
    t.deepEqual(usual, detail, `case ${index}: ${mutations.join(', ')}`);
  }
  t.log(`${fromTree} read from the tree, ${inDetail} left to the detail`);
  t.true(fromTree > 500 && inDetail > 500, `both ways are exercised (${fromTree} / ${inDetail})`);
});
