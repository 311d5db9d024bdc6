/**
 * `pin-service secret-status` and `pin-service unlock`: a secret's failures,
 * lock and last accepted step, and its unlock, asked of the running
 * service through its management port's /admin/ endpoints
 * (observability/admin.ts), with its admin token.
 *
 * Through the running service, never around it: the embedded store's table
 * lives in the service's memory (shared by its worker threads) and its file
 * is held by it, written behind from that table, so a change made in the
 * file by another process would be refused at open and overwritten anyway;
 * with Redis the endpoint reaches the same shared store. One door for both,
 * authenticated, throttled and audited by the service itself.
 *
 * The secret is named by its fingerprint (an audit line's), or read from
 * standard input, never from an argument (which `ps` and shell histories
 * show): its fingerprint is then computed here, with the service's state key
 * and secret encoding, and only the fingerprint is sent.
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, parseConfig, readToken } from '../config';
import type { SecretStatus, UnlockAnswer } from '../observability/admin';
import { secretKey } from '../handlers/fields';
import { ServiceError } from '../../runtime/handler';
import { createStateKeyHasher, FINGERPRINT, fingerprintOf } from '../state/keyed-hash';
import { stateDirectoryPath } from '../state/state-directory';
import { storeBackend } from '../state/index';
import type { TerminalCommand, TerminalIo } from './pair-command';
import { UsageError } from './usage-error';

const HOW = `The service must run with --management-port and --admin-token-file; give
this command the same settings (the flags, or the PIN_* variables: e.g.
node --env-file=/etc/pin-service/pin-service.env dist/src/service/main.js …),
with --admin-token-file naming a copy of the token this user can read.

Without FINGERPRINT, the secret is read from standard input (one line; a
terminal does not echo it), never from an argument, and its fingerprint is
computed with the service's state key (--state-key, or the state-key file of
--state-dir with the embedded store) and --secret-encoding.

--json prints the service's answer as it is (JSON). Exit status: 0 done, 1
the service refused or found no record (the reason on stderr), 2 a usage
mistake.`;

export const secretStatusCommand: TerminalCommand = {
  name: 'secret-status',
  summary: "a secret's failures and lock, from the running service",
  help: `Usage: pin-service secret-status [FINGERPRINT] [--json] [settings]

Prints what the running service holds for a secret: the failures counted in
the throttle window (and the limit), whether it is locked and until when, and
the time step of the last PIN accepted for it.

${HOW}`,
  run: (args, io) => adminCommand('status', args, io),
};

export const unlockCommand: TerminalCommand = {
  name: 'unlock',
  summary: "clear a secret's failures and lock in the running service",
  help: `Usage: pin-service unlock [FINGERPRINT] [--json] [settings]

Clears the failures counted for a secret in the running service, and with
them its lock: the next right PIN is accepted. Prints what was cleared. The
service audits it ("outcome":"unlocked").

${HOW}`,
  run: (args, io) => adminCommand('unlock', args, io),
};

async function adminCommand(action: 'status' | 'unlock', args: string[], io: TerminalIo): Promise<number> {
  // node:util's parseArgs splits the arguments: the fingerprint first, if given; --json anywhere; the rest are settings.
  const { tokens } = parseArgs({ args, options: { json: { type: 'boolean' } }, strict: false, allowPositionals: true, tokens: true });
  const first = tokens[0];
  const given = first?.kind === 'positional' && first.index === 0 && !first.value.startsWith('-') ? first.value : undefined;
  const jsonFlags = tokens.flatMap((token) =>
    token.kind === 'option' && token.rawName === '--json' && token.value === undefined ? [token.index] : [],
  );
  const json = jsonFlags.length > 0;
  const config = parseConfig(
    args.filter((_, i) => !(given !== undefined && i === 0) && !jsonFlags.includes(i)),
    process.env,
  );
  if (config.managementPort === undefined || config.adminTokenFile === undefined) {
    throw new UsageError('needs the management port and the admin token: --management-port and --admin-token-file (see --help)');
  }
  if (given !== undefined && !FINGERPRINT.test(given)) {
    throw new UsageError('a fingerprint is 18 hexadecimal digits (lower case), as an audit line gives it');
  }
  const token = readToken(config.adminTokenFile);
  const fingerprint = given ?? fingerprintOf(stateKeyHasher(config)(keyOf(await readSecret(io), config)));
  const path = `/admin/secrets/${fingerprint}${action === 'unlock' ? '/unlock' : ''}`;
  const base = managementAddress(config);
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: action === 'unlock' ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    io.err(
      `pin-service: cannot reach the management port at ${base} (${cause}): is the service running with --management-port ${config.managementPort}?`,
    );
    return 1;
  }
  const text = await response.text();
  let body: (SecretStatus & Partial<UnlockAnswer>) | { error?: string };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    io.err(`pin-service: ${base} answered ${response.status}, not the service's JSON: is --management-port the service's?`);
    return 1;
  }
  if (!response.ok) {
    const reason = 'error' in body && body.error ? body.error : `HTTP ${response.status}`;
    io.err(`pin-service: ${response.status === 404 ? `${fingerprint}: ` : ''}${reason}`);
    return 1;
  }
  io.out(json ? text : describe(body as SecretStatus & Partial<UnlockAnswer>));
  return 0;
}

/** The answer in lines for a person. */
function describe(status: SecretStatus & Partial<UnlockAnswer>): string {
  const lines: string[] = [];
  if (status.cleared !== undefined) {
    lines.push(
      `unlocked: ${status.cleared} failure${status.cleared === 1 ? '' : 's'} cleared${status.wasLocked ? ' (it was locked)' : ''}`,
    );
  }
  lines.push(`fingerprint:   ${status.fingerprint}`);
  const limit = status.limit > 0 ? ` of ${status.limit} allowed` : ' (throttling is off)';
  lines.push(`failures:      ${status.failures}${limit}${status.countEndsAt ? `, counted until ${status.countEndsAt}` : ''}`);
  lines.push(`locked:        ${status.locked ? `yes, until ${status.countEndsAt}` : 'no'}`);
  lines.push(
    `last accepted: ${status.lastAcceptedStep === null ? 'none within the replay window' : `time step ${status.lastAcceptedStep} (${status.lastAcceptedAt})`}`,
  );
  return lines.join('\n');
}

/** Where the management port answers: its host, or loopback when it listens on every interface. */
function managementAddress(config: Config): string {
  const host = config.managementHost === '0.0.0.0' ? '127.0.0.1' : config.managementHost === '::' ? '::1' : config.managementHost;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.managementPort}`;
}

/** The keyed hash the service names state with: its state key, given or kept in its state directory. */
function stateKeyHasher(config: Config): (key: Uint8Array) => string {
  if (config.stateKey !== undefined) return createStateKeyHasher(config.stateKey);
  if (!storeBackend(config.store).embedded || config.store === 'memory') {
    throw new UsageError(
      "without --state-key the service's state key is random, made when it started: give the secret's fingerprint instead",
    );
  }
  const file = join(stateDirectoryPath(config.stateDir), 'state-key');
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(
      `cannot read the state key file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): name the service's state directory with --state-dir, or give the fingerprint`,
    );
  }
  if (key.length < 32) throw new UsageError(`${file} holds no state key`);
  return createStateKeyHasher(key);
}

/** The key bytes of a secretCode, as the service reads it (--secret-encoding). */
function keyOf(secret: string, config: Config): Buffer {
  try {
    return secretKey(secret, config.secretEncoding);
  } catch (error) {
    if (error instanceof ServiceError) throw new UsageError(`the secret read from standard input: ${error.message}`);
    throw error;
  }
}

/** One line of standard input: the secret as the service takes it (only the line's end is removed). */
async function readSecret(io: TerminalIo): Promise<string> {
  const input = io.stdin ?? process.stdin;
  const terminal = (input as NodeJS.ReadStream).isTTY === true;
  if (terminal) io.err('Type the secret (secretCode), then Enter; it is not shown:');
  const line = terminal ? await readHidden(input as NodeJS.ReadStream) : await readFirstLine(input);
  if (line === '') throw new UsageError('no secret on standard input (or give its fingerprint)');
  return line;
}

async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0].replace(/\r$/, '');
}

/** A line typed at a terminal, not echoed (raw mode); Ctrl-C and Ctrl-D end it. */
function readHidden(input: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    input.setRawMode(true);
    input.setEncoding('utf8');
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n' || character === '\u0004') return done();
        if (character === '\u0003') return done(new UsageError('interrupted'));
        if (character === '\u007f') text = text.slice(0, -1);
        else text += character;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
