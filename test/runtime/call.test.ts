/**
 * The seam between the bindings and a handler (src/runtime/definition.ts,
 * Call; src/runtime/call-state.ts): whatever the variant, a handler is handed
 * its call as plain data — the caller's address, the request id of the
 * call's log line, the operation and the variant, nothing else — and what it
 * tells through `answered` is the outcome of the call's request log line.
 * Driven through the temperature fixture contract served by the runtime's
 * host.
 */
import test from 'ava';
import type { AnyOperations } from '../../codegen/harness/load-generated';
import type { Call, ContractDefinition } from '../../src/runtime/definition';
import { SOAP11, SOAP12, soapEnvelope } from '../../src/runtime/wire/soap-envelope';
import { escapeXmlAttribute } from '../../src/runtime/xml/xml-escape';
import { type FixtureContract, generateFixture, type ServedFixture, serveFixture } from '../support/fixture-contract';

const OPERATION = 'CelsiusToFahrenheit';

let fixture: FixtureContract;
let served: ServedFixture;
/** What the handler was handed, by the request id its call sent. */
const handed = new Map<string, Call>();

test.before(async () => {
  fixture = await generateFixture('temperature');
  served = await serveFixture(fixture.definition, {
    [OPERATION]: async (request: { Celsius?: string }, call: Call) => {
      handed.set(call.requestId ?? '(none)', call);
      // A word of the handler's own for what its answer meant, or none (then the line says `ok`).
      if (request.Celsius === '100') call.answered('boiling');
      return String((Number(request.Celsius) * 9) / 5 + 32);
    },
  });
});

test.after.always(async () => {
  await served?.close();
  fixture?.remove();
});

/** The call of each variant, with the X-Request-Id `id` and Celsius `celsius`. */
function request(definition: ContractDefinition<AnyOperations>, variant: string, id: string, celsius: string): [string, RequestInit] {
  const route = definition.routes[OPERATION];
  const ns = escapeXmlAttribute(definition.targetNamespace);
  const operationUrl = `${served.endpoint}/${route.httpOperation}`;
  const headers = { 'X-Request-Id': id };
  switch (variant) {
    case 'soap11':
      return [
        served.endpoint,
        {
          method: 'POST',
          headers: {
            ...headers,
            'Content-Type': SOAP11.contentType,
            SOAPAction: `"${definition.targetNamespace}${route.soapActionSuffix}"`,
          },
          body: soapEnvelope(SOAP11, route.encodeSoapRequest(new fixture.types[OPERATION]({ Celsius: celsius } as never), ns)),
        },
      ];
    case 'soap12':
      return [
        served.endpoint,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': SOAP12.contentType },
          body: soapEnvelope(SOAP12, route.encodeSoapRequest(new fixture.types[OPERATION]({ Celsius: celsius } as never), ns)),
        },
      ];
    case 'httpGet':
      return [`${operationUrl}?Celsius=${celsius}`, { headers }];
    case 'httpPost':
      return [
        operationUrl,
        { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: `Celsius=${celsius}` },
      ];
    default:
      return [
        operationUrl,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.stringify({ Celsius: celsius }),
        },
      ];
  }
}

const VARIANTS = ['soap11', 'soap12', 'httpGet', 'httpPost', 'json'] as const;

for (const variant of VARIANTS) {
  test(`${variant}: the handler is handed the call as plain data — address, request id, operation, variant, header blocks (none here) — and nothing else`, async (t) => {
    const id = `call-${variant}`;
    const answer = await fetch(...request(fixture.definition, variant, id, '20'));
    t.is(answer.status, 200, await answer.text());
    t.is(answer.headers.get('x-request-id'), id);
    const call = handed.get(id);
    t.deepEqual({ ...call }, { address: '127.0.0.1', requestId: id, operation: OPERATION, variant, headers: { in: {}, out: {} } });
    t.true(Object.isFrozen(call?.headers.out), 'an operation that declares no header blocks shares one frozen pair');
    t.is(typeof call?.answered, 'function');
    const line = served.lines().find((l) => l.event === 'request' && l.id === id);
    t.like(line, { operation: OPERATION, variant, status: 200, outcome: 'ok' }, 'a handler that tells nothing: `ok`');
  });

  test(`${variant}: what the handler tells through answered() is its request line's outcome`, async (t) => {
    const id = `answered-${variant}`;
    const answer = await fetch(...request(fixture.definition, variant, id, '100'));
    t.is(answer.status, 200, await answer.text());
    const line = served.lines().find((l) => l.event === 'request' && l.id === id);
    t.like(line, { operation: OPERATION, variant, status: 200, outcome: 'boiling' });
  });
}

test('a call the binding refuses before its handler runs is not handed to it, and its line says why', async (t) => {
  const id = 'refused-call';
  const [url, init] = request(fixture.definition, 'httpGet', id, '20');
  const answer = await fetch(url.replace('?Celsius=20', '?Celsius=1&Celsius=2'), init);
  t.is(answer.status, 400);
  t.false(handed.has(id));
  t.like(
    served.lines().find((l) => l.event === 'request' && l.id === id),
    { status: 400, outcome: 'client' },
  );
});
