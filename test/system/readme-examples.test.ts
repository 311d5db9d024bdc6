/**
 * The README's shell examples, run as a reader runs them (bash and curl,
 * against a service on a free loopback port instead of localhost:8080): every
 * answer is the one its comment shows, and running them all a second time
 * answers the same (no example shares a secret that the other's wrong PINs
 * throttle). "Try it with a phone" writes its page outside the repository and
 * starts no second service.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../support/child-service';
import { startTestService, type TestService } from '../support/service';
import { requireTool } from './clients/harness';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The ```sh blocks of the README section headed `### title`. */
function shellBlocks(title: string): string[] {
  const start = README.indexOf(`\n### ${title}\n`);
  if (start < 0) throw new Error(`README has no section ### ${title}`);
  // Up to the next heading outside a code block (shell comments start with # too).
  const blocks: string[] = [];
  const rest = README.slice(start + title.length + 6);
  for (const m of rest.matchAll(/```sh\n([\s\S]*?)```|^#{1,3} /gm)) {
    if (m[1] === undefined) break;
    blocks.push(m[1]);
  }
  return blocks;
}

/** The values the examples' `# …` comments promise: each ManualSetupCode, and ValidatePin's false. */
function promised(block: string): string[] {
  const comments = block.split('\n').filter((line) => line.startsWith('#'));
  return comments.flatMap((c) =>
    [
      ...c.matchAll(
        /<ManualSetupCode>([A-Z2-7]+)<\/ManualSetupCode>|"ManualSetupCode":"([A-Z2-7]+)"|(false<\/(?:boolean|ValidatePinResult)>|\{"d":false\})/g,
      ),
    ].map((m) => m[1] ?? m[2] ?? m[3]),
  );
}

let service: TestService;
test.before(async () => {
  requireTool('curl', ['--version'], 'curl');
  service = await startTestService();
});
test.after.always(async () => service?.close());

/** Runs a block with bash (asynchronously: the service answers in this process). */
async function runBlock(block: string): Promise<string> {
  const script = block.replaceAll('http://localhost:8080', service.url);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return stdout;
}

const SECTIONS = ['HTTP GET', 'HTTP POST (form)', 'SOAP 1.1', 'SOAP 1.2', 'JSON (browser scripts)'];

test.serial('every curl example answers what its comment shows, twice over', async (t) => {
  const secrets = new Map<string, string>();
  for (const run of [1, 2]) {
    for (const title of SECTIONS) {
      const blocks = shellBlocks(title);
      t.true(blocks.length > 0, `${title}: an example`);
      for (const block of blocks) {
        const output = await runBlock(block);
        t.false(/429|Too many|Retry-After/i.test(output), `${title}, run ${run}: not throttled:\n${output}`);
        for (const value of promised(block)) t.true(output.includes(value), `${title}, run ${run}: the answer holds ${value}:\n${output}`);
        // A wrong PIN counts towards the secret's throttling: no two examples validate with one secret.
        for (const command of block.split(/^(?=curl )/m).filter((c) => c.includes('ValidatePin'))) {
          for (const [, secret] of command.matchAll(/secretCode(?:=|>|":")([\w-]+)/g)) {
            t.true(
              !secrets.has(secret) || secrets.get(secret) === title,
              `${title} shares the secret ${secret} with ${secrets.get(secret)}`,
            );
            secrets.set(secret, title);
          }
        }
      }
    }
  }
  t.true(secrets.size >= 4, 'each ValidatePin example has a secret of its own');
});

test.serial('"Try it with a phone" starts no second service and writes its page outside the repository', async (t) => {
  const [block] = shellBlocks('Try it with a phone');
  t.false(/make run/.test(block), 'the block does not start the service again');
  // Up to the page being written (the last step needs the PIN an app shows); the CLI as the checkout has it.
  const upToPage = block
    .slice(0, block.indexOf('echo "open'))
    .replaceAll('node dist/src/service/main.js', 'node --import=tsx src/service/main.ts');
  const page = (await runBlock(`${upToPage}\necho "$page"`)).trim().split('\n').at(-1)!;
  t.false(page.startsWith(REPO), `the page is outside the repository: ${page}`);
  t.regex(
    readFileSync(page, 'utf8'),
    /^<a title='Manually pair with [A-Z2-7]+' href='otpauth:\/\/totp\/Example:me%40example\.com\?secret=/,
  );
  t.false(existsSync(join(REPO, 'pair.html')), 'nothing written into the repository');
});
