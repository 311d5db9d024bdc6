/**
 * What the load generator sends and how it checks the answers.
 *
 * Every request carries its own secret, so replay protection and throttling
 * do real work: a secret is used in a group of GROUP_SIZE calls (fewer than
 * the throttle's 5 failures), mostly with wrong PINs; every CORRECT_EVERY-th
 * secret gets its correct PIN twice (computed here, at send time), so the
 * first of the two is accepted and the second refused as a replay.
 *
 * The answers of ours and of the peer are checked, not only their status:
 * a wrong PIN must be answered false (unless it happens to be valid: that is
 * re-checked), and of the two calls with a correct PIN exactly one is true.
 */
import { encodeBase32 } from '../src/otp/base32';
import { matchTotp } from '../src/otp/totp';
import { buildRequest, pinFor, type OutgoingRequest } from '../test/support/requests';

export type { OutgoingRequest };
const TOTP = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** Calls per secret: below the throttle limit of 5 failures per window, so nothing is throttled. */
export const GROUP_SIZE = 4;
/** Every this-many-th secret gets its correct PIN (calls 3 and 4 of its group). */
export const CORRECT_EVERY = 5;

export type ScenarioId = 'soap11-validate' | 'soap12-validate' | 'get-validate' | 'post-validate' | 'soap11-pair';

/** What the answer to one request must be. */
export type Expectation =
  | { kind: 'wrong-pin'; secret: string; pin: string }
  | { kind: 'correct-pin'; secret: string }
  | { kind: 'pair'; manualSetupCode: string };

export interface Generated {
  request: OutgoingRequest;
  expect: Expectation;
}

/** The SOAP 1.2 envelope keeps the prefix soap12, as the README's example writes it, so figures stay comparable with earlier runs. */
const SOAP12_PREFIX = { prefix: 'soap12' };

export function validateRequest(scenario: ScenarioId, pin: string, secret: string): OutgoingRequest {
  const fields = { pin, secretCode: secret };
  switch (scenario) {
    case 'soap11-validate':
      return buildRequest('soap11', 'ValidatePin', fields);
    case 'soap12-validate':
      return buildRequest('soap12', 'ValidatePin', fields, SOAP12_PREFIX);
    case 'get-validate':
      return buildRequest('httpGet', 'ValidatePin', fields);
    case 'post-validate':
      return buildRequest('httpPost', 'ValidatePin', fields);
    default:
      throw new Error(`not a ValidatePin scenario: ${scenario}`);
  }
}

/** A PIN that is never the TOTP of the secret except by a one-in-a-million accident (re-checked). */
function wrongPin(n: number): string {
  return String((n * 7919 + 104_729) % 1_000_000).padStart(6, '0');
}

/**
 * An endless source of distinct requests for one scenario. `tag` makes the
 * secrets of this source distinct from those of every other source in the run.
 */
export function requestSource(scenario: ScenarioId, tag: string): () => Generated {
  let n = 0;
  let correct: { secret: string; pin: string } | undefined;
  return () => {
    const i = n++;
    const group = Math.floor(i / GROUP_SIZE);
    const position = i % GROUP_SIZE;
    // 20+ characters, like a real secret; distinct per group across the run.
    const secret = `${tag}-${group.toString(36).padStart(8, '0')}-k`;
    if (scenario === 'soap11-pair') {
      const fields = { appName: 'Example', appInfo: `user${i}@example.com`, secretCode: `${secret}${position}` };
      return {
        request: buildRequest('soap11', 'Pair', fields),
        expect: { kind: 'pair', manualSetupCode: encodeBase32(Buffer.from(`${secret}${position}`, 'utf8')) },
      };
    }
    if (group % CORRECT_EVERY === 0 && position >= 2) {
      // The PIN is computed once per secret, so both calls carry the same one (the second is a replay).
      if (correct?.secret !== secret) {
        correct = { secret, pin: pinFor({ clock: Date }, secret) };
      }
      return { request: validateRequest(scenario, correct.pin, secret), expect: { kind: 'correct-pin', secret } };
    }
    const pin = wrongPin(i);
    return { request: validateRequest(scenario, pin, secret), expect: { kind: 'wrong-pin', secret, pin } };
  }
}

/** The boolean a ValidatePin answer carries, in any of the shapes (SOAP body, bare boolean, any prefix). */
export function answeredBoolean(body: string): boolean | undefined {
  if (body.includes('>true</')) return true;
  if (body.includes('>false</')) return false;
  return undefined;
}

/** Tallies the answers to checked requests and says what was wrong. */
export class AnswerChecker {
  checked = 0;
  wrong = 0;
  accidentalMatches = 0;
  trues = 0;
  readonly problems: string[] = [];
  /** Per secret given its correct PIN: how many answers, how many true. */
  private readonly correctGroups = new Map<string, { answers: number; trues: number }>();

  constructor(private readonly driftWindow: number) {}

  check(status: number, body: string, expect: Expectation): void {
    if (status < 200 || status >= 300) return; // counted as an error by autocannon already
    this.checked++;
    if (expect.kind === 'pair') {
      if (!body.includes(`ManualSetupCode>${expect.manualSetupCode}</`) || !body.includes('data:image/svg+xml;base64,')) {
        this.fail('a Pair answer without the expected ManualSetupCode and inline SVG QR code');
      }
      return;
    }
    const answer = answeredBoolean(body);
    if (answer === undefined) return this.fail('a ValidatePin answer without true or false');
    if (answer) this.trues++;
    if (expect.kind === 'wrong-pin') {
      if (!answer) return;
      // One wrong PIN in a million or so is the right one by accident: only then is true correct.
      const key = Buffer.from(expect.secret, 'utf8');
      if (matchTotp(key, TOTP, expect.pin, Math.floor(Date.now() / 1000), this.driftWindow + 1) !== null) this.accidentalMatches++;
      else this.fail('true for a wrong PIN');
      return;
    }
    const group = this.correctGroups.get(expect.secret) ?? { answers: 0, trues: 0 };
    group.answers++;
    if (answer) group.trues++;
    if (group.answers === 2) {
      this.correctGroups.delete(expect.secret);
      if (group.trues !== 1) this.fail(`${group.trues} of 2 calls with one correct PIN answered true (want exactly 1: accepted, then refused as a replay)`);
    } else {
      this.correctGroups.set(expect.secret, group);
    }
  }

  private fail(problem: string): void {
    this.wrong++;
    if (this.problems.length < 5) this.problems.push(problem);
  }
}
