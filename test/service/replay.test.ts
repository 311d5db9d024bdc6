/**
 * Replay protection (RFC 6238 §5.2, docs/security.md): once a PIN is accepted for a
 * secret, its time step and every earlier one are refused for that secret,
 * on every variant, also when the same PIN races in concurrently.
 */
import test from 'ava';
import { startTestService, type TestService } from '../support/service';
import { VARIANTS, pinFor, readBoolean, validatePin, validatePinResult, type Variant } from '../support/requests';

// A fixed instant 15 s into a 30 s step, so that step N−1, N and N+1 are all well defined.
const FIXED_NOW = 1_750_000_005_000;

let service: TestService; // defaults: replay protection on, drift window 1, throttling 5 / 5 min
let unthrottled: TestService; // throttling off, so racing calls are refused only by replay protection
let replayOff: TestService;

test.before(async () => {
  [service, unthrottled, replayOff] = await Promise.all([
    startTestService(),
    startTestService({ throttleAttempts: 0 }),
    startTestService({ replayProtection: false }),
  ]);
  for (const s of [service, unthrottled, replayOff]) s.clock.set(FIXED_NOW);
});

test.after.always(async () => {
  await Promise.all([service, unthrottled, replayOff].filter(Boolean).map((s) => s.close()));
});

test('the defaults have replay protection on and a drift window of 1', (t) => {
  t.true(service.config.replayProtection);
  t.is(service.config.driftWindow, 1);
});

const sameVariantTwice = test.macro({
  async exec(t, variant: Variant) {
    const secret = `replay-twice-${variant}-secret`;
    const pin = pinFor(service, secret);
    t.true(await validatePinResult(service.url, variant, pin, secret), 'first use of the PIN is accepted');
    t.false(await validatePinResult(service.url, variant, pin, secret), 'the same PIN a second time is refused');
    t.false(await validatePinResult(service.url, variant, pin, secret), 'and a third time');
  },
  title: (_, variant) => `${variant}: the same valid PIN twice → true, then false`,
});

for (const variant of VARIANTS) test(sameVariantTwice, variant);

test('replay is refused across variants: accepted over one, refused over every other', async (t) => {
  const secret = 'replay-across-variants-secret';
  const pin = pinFor(service, secret);
  t.true(await validatePinResult(service.url, 'soap11', pin, secret));
  for (const variant of ['soap12', 'httpGet', 'httpPost', 'soap11'] as const) {
    t.false(await validatePinResult(service.url, variant, pin, secret), variant);
  }
});

const parallelCalls = test.macro({
  async exec(t, variants: readonly Variant[]) {
    const secret = `replay-parallel-${variants.join('-')}-secret`;
    const pin = pinFor(unthrottled, secret);
    const calls = Array.from({ length: 10 }, (_, i) => variants[i % variants.length]);
    const answers = await Promise.all(calls.map((variant) => validatePin(unthrottled.url, variant, pin, secret)));
    const results = answers.map((answer, i) => readBoolean(calls[i], answer));
    t.is(results.length, 10);
    t.is(results.filter((r) => r).length, 1, `exactly one of ten concurrent calls is accepted (got ${results.join(', ')})`);
  },
  title: (_, variants: readonly Variant[]) => `10 concurrent calls with the same valid PIN over ${variants.join(' + ')} → exactly one true`,
});

for (const variant of VARIANTS) test(parallelCalls, [variant]);
test(parallelCalls, VARIANTS);

test('with the default throttling too, 5 concurrent calls with the same valid PIN → exactly one true, four false', async (t) => {
  // 5 calls stay within the default limit of 5 attempts, so none of them may be throttled.
  const secret = 'replay-parallel-default-settings-secret';
  const pin = pinFor(service, secret);
  const calls: Variant[] = [...VARIANTS, 'soap11'];
  const answers = await Promise.all(calls.map((variant) => validatePin(service.url, variant, pin, secret)));
  const results = answers.map((answer, i) => readBoolean(calls[i], answer));
  t.deepEqual(
    results.filter((r) => r),
    [true],
  );
  t.is(results.filter((r) => !r).length, 4);
});

const replayOffTwice = test.macro({
  async exec(t, variant: Variant) {
    const secret = `replay-off-${variant}-secret`;
    const pin = pinFor(replayOff, secret);
    t.true(await validatePinResult(replayOff.url, variant, pin, secret));
    t.true(await validatePinResult(replayOff.url, variant, pin, secret), 'replay protection off: accepted again');
    t.true(await validatePinResult(replayOff.url, variant, pin, secret), 'and again');
  },
  title: (_, variant) => `${variant}: replay protection off → the same valid PIN is true every time`,
});

for (const variant of VARIANTS) test(replayOffTwice, variant);

test('replay protection off: an older PIN after a newer one is still accepted', async (t) => {
  const secret = 'replay-off-older-secret';
  t.true(await validatePinResult(replayOff.url, 'soap11', pinFor(replayOff, secret, 0), secret));
  t.true(await validatePinResult(replayOff.url, 'soap11', pinFor(replayOff, secret, -1), secret));
});

const olderAndNewerSteps = test.macro({
  async exec(t, variant: Variant) {
    const secret = `replay-steps-${variant}-secret`;
    const [previous, current, next] = [-1, 0, 1].map((d) => pinFor(service, secret, d));
    t.not(previous, current, 'this secret has distinct PINs for steps N−1, N, N+1 at the fixed instant');
    t.not(current, next);
    t.true(await validatePinResult(service.url, variant, current, secret), 'the PIN of step N is accepted');
    t.false(await validatePinResult(service.url, variant, previous, secret), 'the PIN of step N−1, older than an accepted one, is refused');
    t.true(await validatePinResult(service.url, variant, next, secret), 'the PIN of step N+1 (inside the drift window) is accepted');
    t.false(await validatePinResult(service.url, variant, current, secret), 'now step N is older than an accepted one: refused');
    t.false(await validatePinResult(service.url, variant, next, secret), 'and step N+1 is a replay');
  },
  title: (_, variant) => `${variant}: drift window 1, after step N is accepted: step N−1 → false, step N+1 → true`,
});

for (const variant of VARIANTS) test(olderAndNewerSteps, variant);

test('a PIN of an earlier step is refused once a later step was accepted first', async (t) => {
  const secret = 'replay-later-first-secret';
  t.true(await validatePinResult(service.url, 'httpGet', pinFor(service, secret, 1), secret), 'step N+1 accepted');
  t.false(await validatePinResult(service.url, 'httpGet', pinFor(service, secret, 0), secret), 'step N refused');
  t.false(await validatePinResult(service.url, 'httpGet', pinFor(service, secret, -1), secret), 'step N−1 refused');
});

test('no cross-talk: a PIN accepted for secret A does not stop secret B’s own PIN', async (t) => {
  const secretA = 'replay-crosstalk-A-secret';
  const secretB = 'replay-crosstalk-B-secret';
  t.true(await validatePinResult(service.url, 'soap12', pinFor(service, secretA), secretA));
  t.true(await validatePinResult(service.url, 'soap12', pinFor(service, secretB), secretB), 'secret B’s PIN of the same step');
  t.false(await validatePinResult(service.url, 'soap12', pinFor(service, secretA), secretA), 'A’s PIN stays a replay');
  t.false(await validatePinResult(service.url, 'soap12', pinFor(service, secretB), secretB), 'B’s PIN is now a replay too');
});

test('when time moves on two steps, the new step’s PIN is accepted after a replay was refused', async (t) => {
  const own = await startTestService();
  t.teardown(() => own.close());
  own.clock.set(FIXED_NOW);
  const secret = 'replay-later-time-secret';
  t.true(await validatePinResult(own.url, 'httpPost', pinFor(own, secret), secret));
  t.false(await validatePinResult(own.url, 'httpPost', pinFor(own, secret), secret));
  own.clock.set(FIXED_NOW + 60_000); // two steps later: a fresh PIN of a fresh step
  t.true(await validatePinResult(own.url, 'httpPost', pinFor(own, secret), secret));
});
