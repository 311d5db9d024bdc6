/**
 * Debian tools for the browser and QR system tests: Chromium (driven by
 * playwright-core, never a downloaded browser) and zbarimg (zbar-tools).
 * Each is asserted installed with a clear message (installed by .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Where screenshots and decoded images go (git-ignored; `make clean` removes it). */
export const OUTPUT_DIR = join(__dirname, '..', '..', 'test-output');

export function outputPath(name: string): string {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return join(OUTPUT_DIR, name);
}

/** Fails loudly when Debian's chromium is missing: `make test-all` needs it (see .ci/run). */
export function requireChromium(): void {
  const found = existsSync(CHROMIUM) && spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (!found || found.error || found.status !== 0) {
    throw new Error(`${CHROMIUM} is not installed: run \`apt-get install -y chromium\` (see .ci/run)`);
  }
}

/** Fails loudly when zbarimg is missing: `make test-all` needs it (see .ci/run). */
export function requireZbarimg(): void {
  const found = spawnSync('zbarimg', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (found.error || found.status !== 0) {
    throw new Error('zbarimg is not installed: run `apt-get install -y zbar-tools` (see .ci/run)');
  }
}

/**
 * Headless Debian Chromium with everything that would reach the network
 * switched off; `env` is its environment (a HOME whose NSS database trusts a
 * test CA, say).
 */
export async function launchChromium(options: { env?: NodeJS.ProcessEnv } = {}): Promise<Browser> {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    env: options.env,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The text zbarimg reads from an image file (`zbarimg --raw -q`), without the trailing newline. */
export function zbarDecode(file: string): { status: number | null; text: string; stderr: string } {
  requireZbarimg();
  const run = spawnSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, text: run.stdout.replace(/\n$/, ''), stderr: run.stderr };
}

/**
 * Waits until a JavaScript expression is true in the page, polling it with
 * page.evaluate (evaluated by the browser itself, as the page's own script
 * never is: waitForFunction's polling evaluates a string inside the page,
 * which the help pages' Content-Security-Policy refuses).
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${expression} did not become true within ${timeoutMs} ms`);
    await sleep(50);
  }
}
