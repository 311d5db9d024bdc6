/**
 * A full embedded store, seen through the service: which records give way,
 * what `--store-when-full` does when only protective records are left, and
 * what an operator sees of it (metrics, one warning line at most a minute).
 */
import test from 'ava';
import pino from 'pino';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { storePressure } from '../../src/service/observability/store-pressure';
import { VARIANTS, pinFor, readBoolean, readFault, validatePin, validatePinResult, wrongPinFor } from '../support/requests';
import { postJson, readJsonError } from '../support/json-calls';
import { startTestService, type TestService } from '../support/service';

const BOUND = 100;

async function metric(service: TestService, line: RegExp): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const found = new RegExp(`^${line.source} (\\S+)$`, 'm').exec(text);
  if (!found) throw new Error(`no ${line.source} in /metrics`);
  return Number(found[found.length - 1]);
}

const storeMetrics = async (service: TestService) => ({
  entries: await metric(service, /pin_store_entries/),
  unprotective: await metric(service, /pin_store_evictions_total\{kind="unprotective"\}/),
  protective: await metric(service, /pin_store_evictions_total\{kind="protective"\}/),
  refusals: await metric(service, /pin_store_refusals_total/),
});

const warningLines = (service: TestService) =>
  service
    .logs()
    .split('\n')
    .filter((line) => line.includes('"event":"store-full"'));

/** Right PINs for `count` made-up secrets: each call leaves a replay record. */
async function floodOfRightPins(service: TestService, prefix: string, count: number) {
  for (let i = 0; i < count; i++) {
    const secret = `${prefix}-${i}`;
    if (!(await validatePinResult(service, 'httpGet', pinFor(service, secret), secret)))
      throw new Error(`${secret}: the right PIN was not accepted`);
  }
}

test('wrong PINs for made-up secrets evict only their own records: a locked secret stays locked and an accepted PIN stays refused', async (t) => {
  const service = await startTestService({ storeMaxEntries: BOUND, metricsOnPublicPort: true });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  const locked = 'full-store-locked-secret';
  for (let i = 0; i < 5; i++) t.false(await validatePinResult(service, 'httpGet', wrongPinFor(service, locked), locked));
  t.is((await validatePin(service, 'httpGet', pinFor(service, locked), locked)).status, 429);
  const accepted = 'full-store-accepted-secret';
  t.true(await validatePinResult(service, 'httpGet', pinFor(service, accepted), accepted));

  for (let i = 0; i < 10 * BOUND; i++) {
    const secret = `full-store-made-up-${i}`;
    t.is((await validatePin(service, 'httpGet', wrongPinFor(service, secret), secret)).status, 200);
  }

  t.is((await validatePin(service, 'httpGet', pinFor(service, locked), locked)).status, 429, 'still locked');
  t.false(await validatePinResult(service, 'httpGet', pinFor(service, accepted), accepted), 'still a replay');
  t.deepEqual(await storeMetrics(service), { entries: BOUND, unprotective: 10 * BOUND - (BOUND - 2), protective: 0, refusals: 0 });
  t.deepEqual(warningLines(service), [], 'nothing to warn of');
});

test('refuse: right PINs for made-up secrets fill the store; a new secret then fails closed on every variant, held secrets keep working', async (t) => {
  const service = await startTestService({ storeMaxEntries: BOUND, storeWhenFull: 'refuse', metricsOnPublicPort: true });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  await floodOfRightPins(service, 'refuse-flood', BOUND);

  for (const variant of VARIANTS) {
    const secret = `refused-new-secret-${variant}`;
    const answer = await validatePin(service, variant, pinFor(service, secret), secret);
    if (variant === 'soap11' || variant === 'soap12') {
      t.is(answer.status, 500, variant);
      const fault = readFault(answer.body, variant === 'soap11' ? '1.1' : '1.2');
      t.is(fault.codeLocalName, variant === 'soap11' ? 'Server' : 'Receiver', variant);
      t.regex(fault.reason, /cannot validate PINs right now/);
    } else {
      t.is(answer.status, 503, variant);
    }
  }
  const json = await postJson(service.url, 'ValidatePin', { pin: '123456', secretCode: 'refused-new-secret-json' });
  t.regex(readJsonError(t, json, 503, 'System.Exception', 'json').Message, /cannot validate PINs right now/);
  // Every earlier replay record survived, and a held secret's calls are answered.
  for (let i = 0; i < BOUND; i += 9) {
    const secret = `refuse-flood-${i}`;
    t.false(readBoolean('httpGet', await validatePin(service, 'httpGet', pinFor(service, secret), secret)), `${secret} is still a replay`);
    t.false(await validatePinResult(service, 'soap11', wrongPinFor(service, secret), secret));
  }
  t.deepEqual(await storeMetrics(service), { entries: BOUND, unprotective: 0, protective: 0, refusals: VARIANTS.length + 1 });

  const warnings = warningLines(service);
  t.is(warnings.length, 1, 'one warning line, not one per call');
  const line = JSON.parse(warnings[0]);
  t.like(line, { level: 40, event: 'store-full', refusals: 1, protectiveEvictions: 0, maxEntries: BOUND, whenFull: 'refuse' });
  t.false(warnings[0].includes('refused-new-secret'), 'no secret in it');
});

test('evict: the same flood past the bound evicts protective records, counted and logged once', async (t) => {
  const service = await startTestService({ storeMaxEntries: BOUND, storeWhenFull: 'evict', metricsOnPublicPort: true });
  t.teardown(() => service.close({ idleGraceMs: 0 }));
  await floodOfRightPins(service, 'evict-flood', BOUND + 30);
  t.deepEqual(await storeMetrics(service), { entries: BOUND, unprotective: 0, protective: 30, refusals: 0 });
  // What evict gives up: the first secrets' replay records are gone, so their PINs are accepted again.
  t.true(await validatePinResult(service, 'httpGet', pinFor(service, 'evict-flood-0'), 'evict-flood-0'));
  t.false(await validatePinResult(service, 'httpGet', pinFor(service, `evict-flood-${BOUND + 29}`), `evict-flood-${BOUND + 29}`));
  const warnings = warningLines(service);
  t.is(warnings.length, 1);
  t.like(JSON.parse(warnings[0]), { level: 40, event: 'store-full', protectiveEvictions: 1, refusals: 0, whenFull: 'evict' });
});

test('the warning line: the first at once, then at most one an interval, with the counts since the last', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  let now = 1_000_000;
  const observer = storePressure(
    new Registry(),
    pino(sink),
    { storeMaxEntries: 10, storeWhenFull: 'evict' },
    { now: () => now, warningIntervalMs: 200 },
  );
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  observer.evicted(false);
  await settle();
  t.is(lines.length, 0, 'an eviction of what protects nobody is no news');
  observer.evicted(true);
  await settle();
  t.is(lines.length, 1);
  t.like(lines[0], { event: 'store-full', protectiveEvictions: 1, refusals: 0 });
  for (let i = 0; i < 1000; i++) observer.evicted(true);
  observer.refused();
  await settle();
  t.is(lines.length, 1, 'nothing more within the interval');
  now += 200;
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(lines.length, 2);
  t.like(lines[1], { event: 'store-full', protectiveEvictions: 1000, refusals: 1 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(lines.length, 2, 'no line without news');
});
