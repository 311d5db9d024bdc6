/**
 * What the load generator sends, and how it checks the answers, in the scenarios a goal or a decision of
 * docs/performance.md uses.
 *
 * ValidatePin with reused secrets: a secret is used GROUP_SIZE times (below the throttle's 5 failures), mostly with
 * wrong PINs; every CORRECT_EVERY-th secret gets its correct PIN twice, so that one call is accepted and the other
 * refused as a replay. With fresh secrets: every request a secret never sent before, half with its right PIN, so
 * that the embedded store fills and evicts as on a busy service. Pair: new fields on every call. Every answer of
 * ours, before and the peer is checked, not only its status.
 */
import { encodeBase32 } from '../src/service/otp/base32';
import { matchTotp } from '../src/service/otp/totp';
import { DEFAULT_TOTP, buildRequest, pinFor, wrongPinFor, type OutgoingRequest, type Variant } from '../test/support/requests';

const GROUP_SIZE = 4;
const CORRECT_EVERY = 5;

export type ScenarioId = 'soap11-validate' | 'soap11-validate-fresh' | 'get-validate' | 'soap11-pair';

export interface Scenario {
  id: ScenarioId;
  title: string;
  variant: Variant;
  operation: 'ValidatePin' | 'Pair';
  /** A new secret on every call (the store fills, then evicts), or each used GROUP_SIZE times. */
  fresh: boolean;
}

/** In the order a round measures them (the fresh one right after its reused one, to see the same machine). */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'soap11-validate', title: 'SOAP 1.1 ValidatePin', variant: 'soap11', operation: 'ValidatePin', fresh: false },
  { id: 'soap11-validate-fresh', title: 'SOAP 1.1 ValidatePin, fresh secrets', variant: 'soap11', operation: 'ValidatePin', fresh: true },
  { id: 'get-validate', title: 'HTTP GET ValidatePin', variant: 'httpGet', operation: 'ValidatePin', fresh: false },
  { id: 'soap11-pair', title: 'SOAP 1.1 Pair (inline SVG QR code)', variant: 'soap11', operation: 'Pair', fresh: false },
];

export const scenario = (id: ScenarioId): Scenario => SCENARIOS.find((s) => s.id === id)!;

/** What the answer to one request must be. */
export type Expectation =
  | { kind: 'wrong-pin'; secret: string; pin: string }
  | { kind: 'correct-pin'; secret: string }
  | { kind: 'fresh-right-pin' }
  | { kind: 'pair'; manualSetupCode: string };

export interface Generated {
  request: OutgoingRequest;
  expect: Expectation;
}

export function validateRequest(variant: Variant, pin: string, secretCode: string): OutgoingRequest {
  return buildRequest(variant, 'ValidatePin', { pin, secretCode });
}

/** A PIN that is never the TOTP of the secret except by a one-in-a-million accident (re-checked). */
const wrongPin = (n: number) => String((n * 7919 + 104_729) % 1_000_000).padStart(6, '0');

/** The servers' drift window (the default), and one step more for a step that turns meanwhile. */
const CHECKED_WINDOW = 2;

/** An endless source of distinct requests for one scenario. `tag` keeps its secrets apart from every other source's in the run. */
export function requestSource(id: ScenarioId, tag: string): () => Generated {
  const { variant, operation, fresh } = scenario(id);
  let n = 0;
  let correct: { secret: string; pin: string } | undefined;
  return () => {
    const i = n++;
    if (operation === 'Pair') {
      const secretCode = `${tag}-${i.toString(36).padStart(8, '0')}-pair`;
      const fields = { appName: 'Example', appInfo: `user${i}@example.com`, secretCode };
      return {
        request: buildRequest(variant, 'Pair', fields),
        expect: { kind: 'pair', manualSetupCode: encodeBase32(Buffer.from(secretCode)) },
      };
    }
    if (fresh) {
      const secret = `${tag}-${i.toString(36).padStart(8, '0')}-f`;
      if (i % 2 === 0)
        return { request: validateRequest(variant, pinFor({ clock: Date }, secret), secret), expect: { kind: 'fresh-right-pin' } };
      return { request: validateRequest(variant, wrongPin(i), secret), expect: { kind: 'wrong-pin', secret, pin: wrongPin(i) } };
    }
    const group = Math.floor(i / GROUP_SIZE);
    const secret = `${tag}-${group.toString(36).padStart(8, '0')}-k`;
    if (group % CORRECT_EVERY === 0 && i % GROUP_SIZE >= 2) {
      // Computed once per secret, so both calls carry the same PIN (the second is a replay).
      if (correct?.secret !== secret) correct = { secret, pin: pinFor({ clock: Date }, secret) };
      return { request: validateRequest(variant, correct.pin, secret), expect: { kind: 'correct-pin', secret } };
    }
    // A wrong PIN right by accident before the correct one would make that one a replay: those are checked.
    const pin = group % CORRECT_EVERY === 0 ? wrongPinFor({ clock: Date }, secret, CHECKED_WINDOW) : wrongPin(i);
    return { request: validateRequest(variant, pin, secret), expect: { kind: 'wrong-pin', secret, pin } };
  };
}

/** The boolean a ValidatePin answer carries, in any of its shapes. */
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
  /** Per secret given its correct PIN: answers and trues so far. */
  private readonly correctGroups = new Map<string, { answers: number; trues: number }>();

  check(status: number, body: string, expect: Expectation): void {
    if (status < 200 || status >= 300) return; // counted as an error by autocannon already
    this.checked++;
    if (expect.kind === 'pair') {
      if (!body.includes(`ManualSetupCode>${expect.manualSetupCode}</`) || !body.includes('data:image/svg+xml;base64,'))
        this.fail('a Pair answer without the expected ManualSetupCode and inline SVG QR code');
      return;
    }
    const answer = answeredBoolean(body);
    if (answer === undefined) {
      this.fail('a ValidatePin answer without true or false');
      return;
    }
    if (answer) this.trues++;
    if (expect.kind === 'fresh-right-pin') {
      if (!answer) this.fail('false for the right PIN of a secret never sent before');
    } else if (expect.kind === 'wrong-pin') {
      if (!answer) return;
      const step = Math.floor(Date.now() / 1000);
      if (matchTotp(Buffer.from(expect.secret), DEFAULT_TOTP, expect.pin, step, CHECKED_WINDOW) !== null) this.accidentalMatches++;
      else this.fail('true for a wrong PIN');
    } else {
      const group = this.correctGroups.get(expect.secret) ?? { answers: 0, trues: 0 };
      group.answers++;
      if (answer) group.trues++;
      this.correctGroups.set(expect.secret, group);
      if (group.answers < 2) return;
      this.correctGroups.delete(expect.secret);
      if (group.trues !== 1) this.fail(`${group.trues} of 2 calls with one correct PIN answered true (want 1, then a replay refused)`);
    }
  }

  private fail(problem: string): void {
    this.wrong++;
    if (this.problems.length < 5) this.problems.push(problem);
  }
}
