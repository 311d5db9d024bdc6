/**
 * What the interoperability suites (test/system/interop-*.test.ts) share:
 * running a client of another ecosystem as a child process that reads its
 * calls as JSON on stdin and prints its results as JSON; one scenario of
 * calls every client makes, and the checks of its results; PINs from the
 * service's own clock (test/support/requests.ts); and the service's request
 * log, to see which variant each call really used.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import type { Config } from '../../../src/service/config';
import { pinFor, wrongPinFor, type Operation } from '../../support/requests';
import { startTestService, type TestService } from '../../support/service';
import { setupCodeVectors } from '../../support/vectors';

const execFileAsync = promisify(execFile);

export const CLIENTS_DIR = __dirname;

/**
 * Debian's interpreter: python3-zeep is installed for it, not for another
 * python3 that may come first on PATH (pyenv, a virtualenv).
 */
export const PYTHON = '/usr/bin/python3';

/** Fails with a clear message when a tool the suite needs is missing (installed by .ci/run). */
export function requireTool(command: string, args: string[], packages: string): string {
  const found = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (found.error || found.status !== 0) {
    const why = found.error?.message ?? found.stderr.trim().split('\n').pop();
    throw new Error(`${command} ${args.join(' ')} failed (${why}): run \`apt-get install -y ${packages}\` (see .ci/run)`);
  }
  return found.stdout.trim();
}

/**
 * One value as a typed client script (zeep_typed_client.py, soapclient_typed.php) decoded it: the type the
 * client gave it and its value (a response object's fields are themselves Typed); a zeep datetime's UTC offset.
 */
export interface Typed {
  type: string;
  value: unknown;
  utcOffsetSeconds?: number | null;
}

/** A typed client script's result of one call: the decoded value, or the fault or error, and the raw envelopes. */
export interface TypedResult {
  ok?: Typed;
  fault?: { type: string; code: string | null; message: string };
  error?: { type: string; message: string };
  sent?: string | null;
  received?: string | null;
}

/** Runs a client program with `input` as JSON on stdin; resolves with the JSON it printed. */
export function runJsonClient<T>(command: string, args: string[], input: unknown, timeoutMs = 90_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}:\n${stderr.slice(-4000)}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as T);
      } catch {
        reject(new Error(`${command} ${args.join(' ')} printed no JSON:\n${stdout.slice(0, 2000)}\n${stderr.slice(-2000)}`));
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** One call as the client programs take it. */
export interface Call {
  op: Operation;
  args: Record<string, string>;
}

/** One call's result as the client programs print it. */
export interface CallResult {
  ok?: unknown;
  fault?: { type: string; code: string | number | null; message: string; retryAfter?: string | null };
  error?: { type: string; message: string };
  contentType?: string | null;
}

const VECTORS = setupCodeVectors();
const MIN_SECRET_BYTES = 10; // Pair's default minimum
export const PAIRABLE = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') >= MIN_SECRET_BYTES);
export const TOO_SHORT = VECTORS.filter((v) => Buffer.byteLength(v.secretCode, 'utf8') < MIN_SECRET_BYTES);

export const SHORT_SECRET_FAULT = 'secretCode must be at least 10 bytes (80 bits) long.';
export const MISSING_SECRET_FAULT = 'secretCode is required.';
export const THROTTLED_FAULT = /^Too many failed validations for this secret; try again in \d+ seconds\.$/;

/**
 * The calls every client makes against a service with default settings
 * (replay protection and throttling on), and what each must answer:
 *  - Pair for every reference vector: its ManualSetupCode, or, for the ones
 *    shorter than 10 bytes, a client error;
 *  - ValidatePin: false for a wrong PIN, true for the current one, false when
 *    it is replayed; a missing secretCode is a client error;
 *  - five failures for one secret, then even its right PIN is refused (throttled).
 */
export function scenario(service: TestService, label: string) {
  const accepted = `interop-${label}-${Math.random().toString(36).slice(2)}`;
  const throttled = `interop-throttle-${label}-${Math.random().toString(36).slice(2)}`;
  type Expect = { ok: unknown } | { fault: string | RegExp };
  const steps: { call: Call; expect: Expect; what: string }[] = [];
  for (const v of PAIRABLE) {
    steps.push({
      call: { op: 'Pair', args: { appName: 'Interop', appInfo: 'alice@example.com', secretCode: v.secretCode } },
      expect: { ok: v.ManualSetupCode },
      what: `Pair ${JSON.stringify(v.secretCode)}`,
    });
  }
  for (const v of TOO_SHORT) {
    steps.push({
      call: { op: 'Pair', args: { appName: 'Interop', appInfo: 'alice@example.com', secretCode: v.secretCode } },
      expect: { fault: SHORT_SECRET_FAULT },
      what: `Pair ${JSON.stringify(v.secretCode)} (too short)`,
    });
  }
  const validate = (secretCode: string, pin: string, expect: Expect, what: string) =>
    steps.push({ call: { op: 'ValidatePin', args: { pin, secretCode } }, expect, what });
  validate(accepted, wrongPinFor(service, accepted), { ok: false }, 'ValidatePin, a wrong PIN');
  validate(accepted, pinFor(service, accepted), { ok: true }, 'ValidatePin, the current PIN');
  validate(accepted, pinFor(service, accepted), { ok: false }, 'ValidatePin, the current PIN replayed');
  validate('', pinFor(service, accepted), { fault: MISSING_SECRET_FAULT }, 'ValidatePin without secretCode');
  for (let i = 1; i <= 5; i++) validate(throttled, wrongPinFor(service, throttled), { ok: false }, `ValidatePin, failure ${i} of 5`);
  validate(throttled, pinFor(service, throttled), { fault: THROTTLED_FAULT }, 'ValidatePin after 5 failures (throttled)');

  return {
    calls: steps.map((s) => s.call),
    /**
     * Checks every result: `value` reads a client's success value as the
     * ManualSetupCode (Pair) or the boolean (ValidatePin); `fault` checks
     * that a failure is the ecosystem's fault type and returns its message.
     */
    check(
      t: ExecutionContext,
      results: CallResult[],
      read: { pairCode(ok: unknown): unknown; fault(result: CallResult, what: string): string | undefined },
    ) {
      t.is(results.length, steps.length, 'one result per call');
      steps.forEach((step, i) => {
        const result = results[i] ?? {};
        t.is(result.error, undefined, `${step.what}: no other error`);
        if ('ok' in step.expect) {
          t.is(result.fault, undefined, `${step.what}: no fault (${result.fault?.message})`);
          const value = step.call.op === 'Pair' ? read.pairCode(result.ok) : result.ok;
          t.is(value, step.expect.ok, step.what);
        } else {
          const message = read.fault(result, step.what);
          if (typeof step.expect.fault === 'string') t.is(message, step.expect.fault, step.what);
          else t.regex(message ?? '', step.expect.fault, step.what);
        }
      });
    },
  };
}

/** The requests the service logged (one JSON line each): which variant and operation every call used. */
export function requestsSeen(service: TestService): { variant?: string; operation?: string; status: number }[] {
  return service
    .logs()
    .split('\n')
    .filter((line) => line.includes('"event":"request"'))
    .map((line) => JSON.parse(line));
}

/** Asserts that the service saw every call of the scenario, each over `variant`. */
export function assertVariantSeen(t: ExecutionContext, service: TestService, calls: Call[], variant: string): void {
  const seen = requestsSeen(service).filter((r) => r.operation !== undefined);
  t.deepEqual(
    seen.map((r) => `${r.operation} over ${r.variant}`),
    calls.map((c) => `${c.op} over ${variant}`),
    'the service saw each call over the variant under test',
  );
}

/** A client's success value of Pair read as the ManualSetupCode (an object with that member, as every client here gives it). */
const pairCodeOf = (ok: unknown) => (ok as { ManualSetupCode?: string } | null)?.ManualSetupCode;

/**
 * One interoperability test: a fresh service with default settings (replay
 * protection and throttling on; `settings` adds others, e.g. HTTPS), the scenario's calls made by `client`, every
 * result checked (`fault` checks that a failure is the ecosystem's fault and
 * returns its message), and every call seen by the service over `variant`.
 */
export async function runScenario(
  t: ExecutionContext,
  label: string,
  variant: string,
  client: (service: TestService, calls: Call[]) => Promise<CallResult[]>,
  fault: (result: CallResult, what: string) => string | undefined,
  settings: Partial<Config> = {},
): Promise<void> {
  const service = await startTestService(settings);
  try {
    const { calls, check } = scenario(service, label);
    check(t, await client(service, calls), { pairCode: pairCodeOf, fault });
    assertVariantSeen(t, service, calls, variant);
  } finally {
    await service.close();
  }
}

/** False, with a failed assertion naming the Debian packages, when a client tool is missing (requireTool). */
export function haveTool(t: ExecutionContext, command: string, args: string[], packages: string): boolean {
  try {
    requireTool(command, args, packages);
    return true;
  } catch (error) {
    t.fail((error as Error).message);
    return false;
  }
}

/** A tool run bounded in time (SIGKILL when over): its exit code (or signal) and output, never a throw. */
export async function bounded(
  command: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number | string | null; out: string; err: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const {
      code,
      signal,
      stdout = '',
      stderr = '',
      message,
    } = error as {
      code?: number | string;
      signal?: string;
      stdout?: string;
      stderr?: string;
      message: string;
    };
    return { code: signal ?? code ?? null, out: stdout, err: `${stderr}\n${message}` };
  }
}

/** The classpath of JAX-WS RI's client as Debian's jaxws and libjaxws-java install it (wsimport's proxies compile and run on it). */
export const JAXWS_CLASSPATH = [
  'jaxws-rt',
  'jaxws-api',
  'jaxb-api',
  'jws-api',
  'jaxb-impl',
  'jaxb-runtime',
  'jaxb-core',
  'saaj-impl',
  'javax.xml.soap-api',
  'javax.activation',
]
  .map((jar) => `/usr/share/java/${jar}.jar`)
  .join(':');
