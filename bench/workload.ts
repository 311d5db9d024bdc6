/**
 * What the load generator sends and how it checks the answers.
 *
 * Two workloads for ValidatePin:
 * - reused secrets (requestSource's default): a secret is used in a group of
 *   GROUP_SIZE calls (fewer than the throttle's 5 failures), mostly with
 *   wrong PINs; every CORRECT_EVERY-th secret gets its correct PIN twice
 *   (computed here, at send time), so the first of the two is accepted and
 *   the second refused as a replay;
 * - fresh secrets: every request a secret never sent before, half with its
 *   right PIN, half with a wrong one, so that the embedded store fills up and
 *   evicts as it does on a busy service.
 *
 * The answers of ours and of the peer are checked, not only their status:
 * a wrong PIN must be answered false (unless it happens to be valid: that is
 * re-checked), a right PIN on a fresh secret true, and of the two calls with
 * one correct PIN on a reused secret exactly one true.
 */
import { encodeBase32 } from '../src/otp/base32';
import { matchTotp } from '../src/otp/totp';
import { DEFAULT_TOTP, buildRequest, pinFor, wrongPinFor, type OutgoingRequest, type Variant } from '../test/support/requests';

export type { OutgoingRequest };

/** Calls per secret: below the throttle limit of 5 failures per window, so nothing is throttled. */
export const GROUP_SIZE = 4;
/** Every this-many-th secret gets its correct PIN (calls 3 and 4 of its group). */
export const CORRECT_EVERY = 5;

export type ScenarioId =
  | 'soap11-validate'
  | 'soap11-validate-fresh'
  | 'soap12-validate'
  | 'get-validate'
  | 'get-validate-fresh'
  | 'post-validate'
  | 'soap11-pair';

export interface Scenario {
  id: ScenarioId;
  title: string;
  variant: Variant;
  operation: 'ValidatePin' | 'Pair';
  /** ValidatePin only: each secret used GROUP_SIZE times, or every request a new one. */
  secrets: 'reused' | 'fresh';
}

/** Every scenario, in the order a round measures them (each fresh one right after its reused one, to see the same machine). */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'soap11-validate', title: 'SOAP 1.1 ValidatePin', variant: 'soap11', operation: 'ValidatePin', secrets: 'reused' },
  {
    id: 'soap11-validate-fresh',
    title: 'SOAP 1.1 ValidatePin, fresh secrets',
    variant: 'soap11',
    operation: 'ValidatePin',
    secrets: 'fresh',
  },
  { id: 'soap12-validate', title: 'SOAP 1.2 ValidatePin', variant: 'soap12', operation: 'ValidatePin', secrets: 'reused' },
  { id: 'get-validate', title: 'HTTP GET ValidatePin', variant: 'httpGet', operation: 'ValidatePin', secrets: 'reused' },
  {
    id: 'get-validate-fresh',
    title: 'HTTP GET ValidatePin, fresh secrets',
    variant: 'httpGet',
    operation: 'ValidatePin',
    secrets: 'fresh',
  },
  { id: 'post-validate', title: 'HTTP POST ValidatePin', variant: 'httpPost', operation: 'ValidatePin', secrets: 'reused' },
  { id: 'soap11-pair', title: 'SOAP 1.1 Pair (inline SVG QR code)', variant: 'soap11', operation: 'Pair', secrets: 'reused' },
];

export function scenario(id: ScenarioId): Scenario {
  const found = SCENARIOS.find((s) => s.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
}

/** The reused-secrets scenario a fresh-secrets one is compared with. */
export function reusedCounterpart(id: ScenarioId): ScenarioId | undefined {
  const fresh = scenario(id);
  if (fresh.secrets !== 'fresh') return undefined;
  return SCENARIOS.find((s) => s.secrets === 'reused' && s.variant === fresh.variant && s.operation === fresh.operation)?.id;
}

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

/** The SOAP 1.2 envelope keeps the prefix soap12, as the README's example writes it, so figures stay comparable with earlier runs. */
const SOAP12_PREFIX = { prefix: 'soap12' };

export function validateRequest(id: ScenarioId, pin: string, secret: string): OutgoingRequest {
  const { variant, operation } = scenario(id);
  if (operation !== 'ValidatePin') throw new Error(`not a ValidatePin scenario: ${id}`);
  return buildRequest(variant, 'ValidatePin', { pin, secretCode: secret }, variant === 'soap12' ? SOAP12_PREFIX : {});
}

/** A PIN that is never the TOTP of the secret except by a one-in-a-million accident (re-checked). */
function wrongPin(n: number): string {
  return String((n * 7919 + 104_729) % 1_000_000).padStart(6, '0');
}

/**
 * An endless source of distinct requests for one scenario. `tag` makes the
 * secrets of this source distinct from those of every other source in the run;
 * `driftWindow` is the server's (see reusedSecrets).
 */
export function requestSource(id: ScenarioId, tag: string, driftWindow = 1): () => Generated {
  return scenario(id).secrets === 'fresh' ? freshSecrets(id, tag) : reusedSecrets(id, tag, driftWindow);
}

function reusedSecrets(id: ScenarioId, tag: string, driftWindow: number): () => Generated {
  const pair = scenario(id).operation === 'Pair';
  let n = 0;
  let correct: { secret: string; pin: string } | undefined;
  return () => {
    const i = n++;
    const group = Math.floor(i / GROUP_SIZE);
    const position = i % GROUP_SIZE;
    // 20+ characters, like a real secret; distinct per group across the run.
    const secret = `${tag}-${group.toString(36).padStart(8, '0')}-k`;
    if (pair) {
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
      return { request: validateRequest(id, correct.pin, secret), expect: { kind: 'correct-pin', secret } };
    }
    // A wrong PIN that is the right one by accident (one in a million) is fine, except before the correct PIN of the
    // same secret: that one would then be refused twice as a replay. So those wrong PINs are checked (one step more
    // than the window, for a step that turns meanwhile).
    const pin = group % CORRECT_EVERY === 0 ? wrongPinFor({ clock: Date }, secret, driftWindow + 1) : wrongPin(i);
    return { request: validateRequest(id, pin, secret), expect: { kind: 'wrong-pin', secret, pin } };
  };
}

/** Every request a secret never sent before: even ones with its right PIN (computed at send time), odd ones with a wrong PIN. */
function freshSecrets(id: ScenarioId, tag: string): () => Generated {
  let n = 0;
  return () => {
    const i = n++;
    const secret = `${tag}-${i.toString(36).padStart(8, '0')}-f`;
    if (i % 2 === 0) return { request: validateRequest(id, pinFor({ clock: Date }, secret), secret), expect: { kind: 'fresh-right-pin' } };
    const pin = wrongPin(i);
    return { request: validateRequest(id, pin, secret), expect: { kind: 'wrong-pin', secret, pin } };
  };
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
    if (answer === undefined) {
      this.fail('a ValidatePin answer without true or false');
      return;
    }
    if (answer) this.trues++;
    if (expect.kind === 'fresh-right-pin') {
      if (!answer) this.fail('false for the right PIN of a secret never sent before');
      return;
    }
    if (expect.kind === 'wrong-pin') {
      if (!answer) return;
      // One wrong PIN in a million or so is the right one by accident: only then is true correct.
      const key = Buffer.from(expect.secret, 'utf8');
      if (matchTotp(key, DEFAULT_TOTP, expect.pin, Math.floor(Date.now() / 1000), this.driftWindow + 1) !== null) this.accidentalMatches++;
      else this.fail('true for a wrong PIN');
      return;
    }
    const group = this.correctGroups.get(expect.secret) ?? { answers: 0, trues: 0 };
    group.answers++;
    if (answer) group.trues++;
    if (group.answers === 2) {
      this.correctGroups.delete(expect.secret);
      if (group.trues !== 1)
        this.fail(`${group.trues} of 2 calls with one correct PIN answered true (want exactly 1: accepted, then refused as a replay)`);
    } else {
      this.correctGroups.set(expect.secret, group);
    }
  }

  private fail(problem: string): void {
    this.wrong++;
    if (this.problems.length < 5) this.problems.push(problem);
  }
}
