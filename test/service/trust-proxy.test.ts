/**
 * Behind a trusted proxy (--trust-proxy) the caller's address is the last
 * X-Forwarded-For entry, the one the nearest proxy added, on the service's
 * public port and on the runtime's host alike (both built by
 * src/runtime/app-builder.ts): an entry the caller wrote before it is never
 * taken, and without --trust-proxy the header is ignored. The service shows
 * the address in its audit line; the host hands it to a handler in its Call.
 */
import test from 'ava';
import type { Call } from '../../src/runtime/definition';
import { createStateKeyHasher, fingerprintOf } from '../../src/service/state/keyed-hash';
import { type FixtureContract, generateFixture, serveFixture } from '../support/fixture-contract';
import { startTestService } from '../support/service';

const STATE_KEY = 'the-state-key-of-the-trust-proxy-tests-012345';
/** The caller writes the first entry; the proxy in front appends the address it saw connect. */
const FORWARDED = '198.51.100.66, 203.0.113.7';
const SPOOFED = '198.51.100.66';
const PROXY_SAW = '203.0.113.7';

let temperature: FixtureContract;
test.before(async () => {
  temperature = await generateFixture('temperature');
});
test.after.always(() => temperature?.remove());

/** The address the service's audit line gives a ValidatePin sent with FORWARDED. */
async function serviceAddress(trustProxy: boolean): Promise<unknown> {
  const service = await startTestService({ stateKey: STATE_KEY, trustProxy });
  try {
    const secret = `trust-proxy-secret-${trustProxy}`;
    const answer = await fetch(`${service.url}/api.asmx/ValidatePin?pin=000000&secretCode=${secret}`, {
      headers: { 'X-Forwarded-For': FORWARDED },
    });
    if (answer.status !== 200) throw new Error(`ValidatePin answered ${answer.status}`);
    const fingerprint = fingerprintOf(createStateKeyHasher(STATE_KEY)(Buffer.from(secret, 'utf8')));
    const line = service
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.event === 'audit' && l.fingerprint === fingerprint);
    return line?.address;
  } finally {
    await service.close({ idleGraceMs: 0 });
  }
}

/** The address a handler of a contract on the runtime's host is handed for a call sent with FORWARDED. */
async function hostAddress(trustProxy: boolean): Promise<string | undefined> {
  let address: string | undefined;
  const served = await serveFixture(
    temperature.definition,
    {
      CelsiusToFahrenheit: async (_request: unknown, call: Call) => {
        address = call.address;
        return '68';
      },
    },
    { trustProxy },
  );
  try {
    const answer = await fetch(`${served.endpoint}/CelsiusToFahrenheit?Celsius=20`, { headers: { 'X-Forwarded-For': FORWARDED } });
    if (answer.status !== 200) throw new Error(`CelsiusToFahrenheit answered ${answer.status}`);
    return address;
  } finally {
    await served.close();
  }
}

test('--trust-proxy: the service and the runtime’s host both take the last X-Forwarded-For entry, never the one the caller wrote before it', async (t) => {
  const [service, host] = await Promise.all([serviceAddress(true), hostAddress(true)]);
  t.is(service, PROXY_SAW, 'the service');
  t.is(host, PROXY_SAW, 'the runtime’s host');
  t.not(host, SPOOFED);
});

test('without --trust-proxy both ignore X-Forwarded-For: the address is the connection’s', async (t) => {
  const [service, host] = await Promise.all([serviceAddress(false), hostAddress(false)]);
  t.is(service, '127.0.0.1');
  t.is(host, '127.0.0.1');
});
