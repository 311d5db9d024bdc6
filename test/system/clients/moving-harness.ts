/**
 * What the suites of docs/moving-from-the-original.md's snippets share
 * (test/system/moving-*.test.ts): the WSDL an application loads today, as a
 * saved copy whose addresses are not this service's, so that only the
 * snippet's change can send a call here; a program run in a folder of its
 * own without blocking the service (it answers from this process); and the
 * variants of the calls the service saw.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { TestService } from '../../support/service';
import { requestsSeen } from './harness';

/**
 * The address a saved WSDL sends calls to, standing for the original's: a
 * closed port on loopback, so a call the snippet did not move is refused at
 * once (and nothing leaves the machine).
 */
export const ORIGINAL_ADDRESS = 'http://127.0.0.1:9/api.asmx';

/** The service's WSDL with the address of each of its four ports made ORIGINAL_ADDRESS. */
export function savedWsdl(wsdl: string, serviceUrl: string): string {
  const ours = `location="${serviceUrl}/api.asmx"`;
  const ports = wsdl.split(ours).length - 1;
  if (ports !== 4) throw new Error(`the WSDL names ${serviceUrl}/api.asmx in ${ports} ports, not 4`);
  return wsdl.replaceAll(ours, `location="${ORIGINAL_ADDRESS}"`);
}

/** A temporary folder for one test's files, removed when the test ends. */
export function workFolder(t: ExecutionContext, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'pin-moving-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs a program in `cwd`, bounded in time (SIGKILL when over); its exit code and output, never a throw. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 120_000,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, timeout: timeoutMs, killSignal: 'SIGKILL', stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The variants of the operation calls the service saw, in order, from `from` on (an index of requestsSeen). */
export function variantsSeen(service: TestService, from = 0): string[] {
  return requestsSeen(service)
    .filter((r) => r.operation !== undefined)
    .slice(from)
    .map((r) => `${r.operation} over ${r.variant}`);
}

/** How many operation calls the service has seen so far. */
export const callsSeen = (service: TestService): number => variantsSeen(service).length;
