/**
 * A steady, bounded load of mixed ValidatePin calls for failover tests, and
 * what it saw. Each client loops over fresh secrets; for each it sends a
 * wrong PIN (must not be true), the right PIN (true, unless the call fails
 * closed) and, when that was true, the same PIN again (must not be true),
 * over every variant in turn (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST,
 * JSON), each call to the next target in turn.
 *
 * An answer is one of: true, false, failed closed (503; a SOAP 1.1
 * soap:Server or 1.2 soap:Receiver fault with 500; JSON 503), or anything
 * else (unexpected: a test fails on it).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallVariant } from '../../src/runtime/definition';
import { postJson } from './json-calls';
import { buildRequest, sendRequest } from './requests';

export type CallKind = 'wrong' | 'right' | 'replay';
export type Outcome = 'true' | 'false' | 'failed-closed' | 'unexpected';

export interface LoadCall {
  kind: CallKind;
  variant: CallVariant;
  target: string;
  secret: string;
  pin: string;
  sentAt: number;
  answeredAt: number;
  status: number;
  outcome: Outcome;
  /** The start of an unexpected answer, to show in a failure. */
  detail?: string;
}

const VARIANTS: CallVariant[] = ['soap11', 'soap12', 'httpGet', 'httpPost', 'json'];

/** ValidatePin over `variant` at `target`, read as an Outcome. */
export async function validateOutcome(
  target: string,
  variant: CallVariant,
  pin: string,
  secret: string,
): Promise<{ status: number; outcome: Outcome; detail?: string }> {
  let status: number;
  let body: string;
  try {
    const answer =
      variant === 'json'
        ? await postJson(target, 'ValidatePin', { pin, secretCode: secret })
        : await sendRequest(target, buildRequest(variant, 'ValidatePin', { pin, secretCode: secret }));
    ({ status, body } = answer);
  } catch (error) {
    return { status: 0, outcome: 'unexpected', detail: (error as Error).message };
  }
  if (status === 200) {
    const value = variant === 'json' ? /^\{"d":(true|false)\}$/.exec(body)?.[1] : />(true|false)</.exec(body)?.[1];
    if (value) return { status, outcome: value as Outcome };
  }
  if (status === 503 && variant !== 'soap11' && variant !== 'soap12') return { status, outcome: 'failed-closed' };
  if (status === 500 && variant === 'soap11' && body.includes('<faultcode>soap:Server</faultcode>'))
    return { status, outcome: 'failed-closed' };
  if (status === 500 && variant === 'soap12' && body.includes('<soap:Value>soap:Receiver</soap:Value>'))
    return { status, outcome: 'failed-closed' };
  return { status, outcome: 'unexpected', detail: body.slice(0, 200) };
}

export interface LoadOptions {
  /** Base URLs the calls go to, in turn. */
  targets: string[];
  clients: number;
  /** Pause of each client after each secret. */
  pauseMs: number;
  /** The load stops by itself after this long, whatever happens. */
  maxMs: number;
  secretPrefix: string;
  /** The right PIN of a secret now, and one that is wrong for every step the service accepts. */
  pinOf(secret: string): string;
  wrongPinOf(secret: string): string;
}

export interface RunningLoad {
  calls: LoadCall[];
  /** Stops the clients and waits for their last calls. */
  stop(): Promise<LoadCall[]>;
}

export function startLoad(options: LoadOptions): RunningLoad {
  const calls: LoadCall[] = [];
  const deadline = Date.now() + options.maxMs;
  let stopped = false;
  let turn = 0;
  const one = async (kind: CallKind, variant: CallVariant, secret: string, pin: string) => {
    const target = options.targets[turn++ % options.targets.length];
    const sentAt = Date.now();
    const answer = await validateOutcome(target, variant, pin, secret);
    const call: LoadCall = { kind, variant, target, secret, pin, sentAt, answeredAt: Date.now(), ...answer };
    calls.push(call);
    return call;
  };
  const clients = Array.from({ length: options.clients }, async (_, c) => {
    for (let i = 0; !stopped && Date.now() < deadline; i++) {
      const secret = `${options.secretPrefix}-${c}-${i}-${randomBytes(4).toString('hex')}`;
      const variant = VARIANTS[(c + i) % VARIANTS.length];
      await one('wrong', variant, secret, options.wrongPinOf(secret));
      const pin = options.pinOf(secret);
      const right = await one('right', variant, secret, pin);
      if (right.outcome === 'true') await one('replay', VARIANTS[(c + i + 1) % VARIANTS.length], secret, pin);
      await sleep(options.pauseMs);
    }
  });
  const all = Promise.all(clients);
  return {
    calls,
    stop: async () => {
      stopped = true;
      await all;
      return calls;
    },
  };
}

export interface FailoverSummary {
  calls: number;
  /** Calls answered true or false / failed closed / otherwise, from the kill on. */
  answeredAfterKill: number;
  failedClosed: number;
  /** true for a wrong PIN, or for a replay sent after its PIN's acceptance had been answered in the same phase. */
  wrong: LoadCall[];
  /**
   * Immediate replays answered true whose PIN was accepted before the kill
   * and replayed after it: the replay window, counted apart from `wrong`.
   */
  replayWindow: LoadCall[];
  unexpected: LoadCall[];
  /** Seconds from the kill to the first call answered true or false. */
  firstAnswerSeconds: number | undefined;
  /** Seconds from the kill to the start of the first call after which no call failed. */
  recoveredSeconds: number | undefined;
  /** Calls started after the recovery. */
  afterRecovery: number;
}

/** What the load saw around a kill at `killedAt`. */
export function summarize(calls: LoadCall[], killedAt: number): FailoverSummary {
  const sorted = [...calls].sort((x, y) => x.sentAt - y.sentAt);
  const answered = (c: LoadCall) => c.outcome === 'true' || c.outcome === 'false';
  const accepted = new Map(sorted.filter((c) => c.kind === 'right' && c.outcome === 'true').map((c) => [c.secret, c]));
  const wrong: LoadCall[] = [];
  const replayWindow: LoadCall[] = [];
  for (const c of sorted) {
    if (c.outcome !== 'true') continue;
    if (c.kind === 'wrong') wrong.push(c);
    if (c.kind === 'replay') {
      const original = accepted.get(c.secret)!;
      if (original.answeredAt < killedAt && c.sentAt >= killedAt) replayWindow.push(c);
      else wrong.push(c);
    }
  }
  const afterKill = sorted.filter((c) => c.sentAt >= killedAt);
  const lastFailure = afterKill.filter((c) => !answered(c)).at(-1);
  const recovery = lastFailure ? afterKill.find((c) => c.sentAt > lastFailure.sentAt && answered(c)) : afterKill.find(answered);
  const firstAnswer = afterKill.find(answered);
  return {
    calls: calls.length,
    answeredAfterKill: afterKill.length,
    failedClosed: calls.filter((c) => c.outcome === 'failed-closed').length,
    wrong,
    replayWindow,
    unexpected: calls.filter((c) => c.outcome === 'unexpected'),
    firstAnswerSeconds: firstAnswer && (firstAnswer.answeredAt - killedAt) / 1000,
    recoveredSeconds: recovery && (recovery.sentAt - killedAt) / 1000,
    afterRecovery: recovery ? afterKill.filter((c) => c.sentAt >= recovery.sentAt).length : 0,
  };
}

/**
 * Sends every PIN the load had accepted (right, true) again, `width` at a
 * time, each over a variant of its own; answers the calls (true: accepted
 * twice).
 */
export async function replayAccepted(target: string, accepted: LoadCall[], width = 16): Promise<LoadCall[]> {
  const out: LoadCall[] = [];
  for (let i = 0; i < accepted.length; i += width) {
    out.push(
      ...(await Promise.all(
        accepted.slice(i, i + width).map(async (c, j) => {
          const variant = VARIANTS[(i + j) % VARIANTS.length];
          const sentAt = Date.now();
          const answer = await validateOutcome(target, variant, c.pin, c.secret);
          return { kind: 'replay' as const, variant, target, secret: c.secret, pin: c.pin, sentAt, answeredAt: Date.now(), ...answer };
        }),
      )),
    );
  }
  return out;
}
